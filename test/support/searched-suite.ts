/**
 * The checks every snapshot-backed search endpoint owes its buyers, written once for the plugin
 * folders that call them: an answer says what it searched (kind, date, real size, a note that an
 * empty result is not "no such record"), /product-status.json states the same, and nothing a buyer
 * receives names a repository file or an operator setting. Each plugin's own test calls it with
 * its query and adds its own cases (`more`) on the same gateway; and, for endpoints with a live
 * upstream, what /product-status.json says once that upstream is configured.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway, type TestResponse } from './gateway';
import { withQuery } from './query-cases';

export type Query = Record<string, string | number>;

export interface SnapshotSearched {
  endpointId: string;
  /** The preview path, e.g. /preview/v1/<tail>. */
  path: string;
  /** A query answered from the snapshot. */
  query: Query;
  clock: string;
  /** What `_provenance.searched` includes for the snapshot. */
  sample: object;
  /** What its note says. */
  note: RegExp;
  /** What /product-status.json says of the endpoint's data. */
  coverage: object;
  /** The strings of the answers no buyer may read (repository paths, operator settings). */
  ownWords(answers: readonly TestResponse[]): string[];
}

/** Asks the endpoint and keeps the answer for the last check (nothing of ours in any answer). */
export type Ask = (query: Query) => Promise<TestResponse>;

export function describeSnapshotSearched(s: SnapshotSearched, more?: (ask: Ask) => void): void {
  describe(`${s.endpointId}: what an answer searched`, () => {
    let gw: TestGateway;
    const answers: TestResponse[] = [];
    const ask: Ask = async (query) => {
      const res = await gw.get(withQuery(s.path, query));
      answers.push(res);
      return res;
    };
    before(async () => {
      gw = await startTestGateway({ plugins: [s.endpointId], clock: s.clock });
    });
    after(() => gw.close());

    it('the snapshot, its date and its size', async () => {
      const res = await ask(s.query);
      expect(res.status, res.text).to.equal(200);
      expect(res.body._provenance.kind).to.equal('snapshot');
      expect(res.body._provenance.searched).to.include(s.sample);
      expect(res.body._provenance.searched.note).to.match(s.note);
    });

    it('/product-status.json states the same: kind, date and size', async () => {
      expect(await statusData(gw, s.endpointId)).to.deep.include(s.coverage);
    });

    more?.(ask);

    it('no answer names a repository or ../shared file, or an operator setting', () => {
      const found = s.ownWords(answers);
      expect(found, found.join('\n')).to.deep.equal([]);
    });
  });
}

/** The data of one endpoint in a gateway's /product-status.json. */
export async function statusData(gw: TestGateway, endpointId: string): Promise<object> {
  const body = (await gw.get('/product-status.json')).body as {
    endpoints: Array<{ endpoint_id: string; data: object }>;
  };
  return body.endpoints.find((e) => e.endpoint_id === endpointId)!.data;
}

export interface LiveSearched {
  endpointId: string;
  clock: string;
  /** Starts the upstream's stand-in and gives the settings that point the gateway at it. */
  upstream(): Promise<{ env: Record<string, string>; close(): Promise<void> }>;
  /** What /product-status.json says of the endpoint's data once the upstream is configured. */
  status: object;
}

export function describeLiveSearched(s: LiveSearched, more?: (gw: () => TestGateway) => void): void {
  describe(`${s.endpointId} on its live upstream (a stand-in)`, () => {
    let live: TestGateway;
    let upstream: { close(): Promise<void> };
    before(async () => {
      const started = await s.upstream();
      upstream = started;
      live = await startTestGateway({ plugins: [s.endpointId], clock: s.clock, env: started.env });
    });
    after(async () => {
      await live.close();
      await upstream.close();
    });

    more?.(() => live);

    it('/product-status.json says what the live upstream makes of the data', async () => {
      expect(await statusData(live, s.endpointId)).to.include(s.status);
    });
  });
}
