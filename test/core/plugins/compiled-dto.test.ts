import { expect } from 'chai';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvSchema } from '../../../config/env';
import { CompiledDto } from '../../../core/plugins/compiled-dto';
import type { QueryClass } from '../../../core/plugins/contract';
import { QuerySpec } from '../../../core/plugins/query-spec';
import { CreateKeyBody } from '../../../core/keys/key-routes';
import { FeedbackBody } from '../../../core/feedback/feedback-routes';
import { BrokerCallBody } from '../../../core/surfaces/broker';
import { startTestGateway } from '../../support/gateway';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const POOL = [
  '',
  ' ',
  '0',
  '1',
  '-1',
  '1.5',
  '1e3',
  'abc',
  'true',
  'false',
  'TRUE',
  'yes',
  '2026',
  '2026-11-22',
  '2026-02-30',
  '2026-06',
  '2026-13',
  '13',
  '47',
  '48',
  '01',
  'T1180301018771',
  '1180301018771',
  '1180301018772',
  'トヨタ',
  'toyota.co.jp',
  'https://www.toyota.co.jp/',
  'x'.repeat(300),
  '99999999',
  '100000000',
  '10',
  '50',
  '51',
];

/** Candidate values for a parameter: its boundaries and example, plus a pool of awkward texts. */
function candidates(spec: QuerySpec<object>, name: string): string[] {
  const p = spec.param(name)!;
  const s = p.schema as Record<string, unknown>;
  const out = [...POOL, p.example];
  for (const bound of [s.minimum, s.maximum])
    if (typeof bound === 'number') out.push(String(bound - 1), String(bound), String(bound + 1));
  if (Array.isArray(s.enum)) out.push(...s.enum.map(String));
  return out;
}

describe('compiled DTO validation agrees with class-validator and class-transformer', function () {
  this.timeout(60_000);
  const dtos: Array<[string, QueryClass<object>, boolean]> = [
    ['EnvSchema', EnvSchema as QueryClass<object>, false],
    ['CreateKeyBody', CreateKeyBody, true],
    ['FeedbackBody', FeedbackBody, true],
    ['BrokerCallBody', BrokerCallBody, true],
  ];
  before(async () => {
    const gw = await startTestGateway();
    for (const p of gw.gateway.registry.sold()) dtos.push([p.endpointId, p.manifest.query, false]);
    await gw.close();
  });

  it('compiles every DTO the gateway uses', () => {
    expect(dtos.length).to.be.greaterThan(20);
    for (const [name, dto] of dtos) expect(CompiledDto.compile(dto), name).to.not.equal(undefined);
  });

  it('gives the same verdict and the same instance on 1500 random inputs per DTO', () => {
    const r = rng(Number(process.env.DTO_SEED ?? 11));
    let valid = 0;
    let invalid = 0;
    for (const [name, dto, json] of dtos) {
      const compiled = CompiledDto.compile(dto)!;
      const spec = new QuerySpec(dto, {}, json ? { json: true } : {});
      const names = spec.params.map((p) => p.name);
      for (let i = 0; i < 1500; i++) {
        const plain: Record<string, unknown> = {};
        for (const n of names) {
          if (r() < 0.4) continue;
          const text = candidates(spec, n)[Math.floor(r() * candidates(spec, n).length)];
          // JSON bodies also carry numbers, booleans, objects and arrays as such.
          const shapes = [Number(text), text === 'true', { year: text, nested: { a: [text] } }, [text], null];
          plain[n] = json && r() < 0.4 ? shapes[Math.floor(r() * shapes.length)] : text;
        }
        const fast = compiled.instantiate(plain);
        const slow = plainToInstance(dto, plain);
        const slowValid = validateSync(slow, { forbidUnknownValues: false }).length === 0;
        const where = `${name} ${JSON.stringify(plain).slice(0, 300)}`;
        expect(compiled.isValid(fast), where).to.equal(slowValid);
        expect(JSON.stringify(fast), where).to.equal(JSON.stringify(slow));
        if (slowValid) valid++;
        else invalid++;
      }
    }
    // Both outcomes were exercised on a good share of inputs.
    expect(valid).to.be.greaterThan(1000);
    expect(invalid).to.be.greaterThan(1000);
  });
});
