import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KeyLedger } from '../../../core/keys/key-ledger';
import type { KeyCreditRepository } from '../../../core/keys/key-credit-repository';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import type { GatewayStore } from '../../../core/store/gateway-store';

describe('KeyLedger.authenticate remembers keys it has found', () => {
  let dir: string;
  let stores: GatewayStore[];
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-auth-'));
    stores = [openSqliteStore(dir), openSqliteStore(dir)];
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A ledger over one store's repository, counting the hash look-ups that reach the store. */
  function ledgerOf(store: GatewayStore) {
    const lookups = { n: 0 };
    const repo: KeyCreditRepository = Object.create(store.keys);
    repo.findByHash = (hash) => {
      lookups.n++;
      return store.keys.findByHash(hash);
    };
    return { ledger: new KeyLedger(repo), lookups };
  }

  it('reads the store once per key, finds a key another process created, and never remembers a miss', async () => {
    const here = ledgerOf(stores[0]);
    const there = ledgerOf(stores[1]); // another process on the same directory
    const now = new Date('2026-11-26T00:00:00Z');
    const { apiKey, key } = await there.ledger.create('auth test', 1_000, now);

    expect(await here.ledger.authenticate(apiKey)).to.deep.equal({ id: key.id, prefix: key.prefix });
    expect(await here.ledger.authenticate(apiKey)).to.deep.equal({ id: key.id, prefix: key.prefix });
    expect(here.lookups.n, 'one store read for two authentications').to.equal(1);

    // A key shaped like ours but unknown is refused, and refused again after a look-up each time;
    // a key created after a miss is found at once.
    const unknown = `${apiKey.slice(0, -4)}${apiKey.slice(-4) === 'zzzz' ? 'yyyy' : 'zzzz'}`;
    expect(await here.ledger.authenticate(unknown)).to.equal(null);
    expect(await here.ledger.authenticate(unknown)).to.equal(null);
    expect(here.lookups.n).to.equal(3);
    const later = await there.ledger.create('created after a miss', 1_000, now);
    expect((await here.ledger.authenticate(later.apiKey))!.id).to.equal(later.key.id);

    // Authentication settles who the key is; balances are read where they are charged.
    expect(await here.ledger.authenticate(apiKey)).to.not.have.property('balanceMicro');
  });
});
