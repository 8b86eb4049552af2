/**
 * Random inputs that check the compiled DTO path (core/plugins/compiled-dto.ts) against
 * class-validator and class-transformer: the same verdict and the same instance. Shared by the
 * kernel's test (its own DTOs and fixture plugins) and the product-wide test (every DTO in plugins/).
 */
import { expect } from 'chai';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CompiledDto } from '../../core/plugins/compiled-dto';
import type { QueryClass } from '../../core/plugins/contract';
import { QuerySpec } from '../../core/plugins/query-spec';

/** A DTO to check: its name, its class, and whether it reads a JSON body (values of any JSON type). */
export type CheckedDto = [name: string, dto: QueryClass<object>, json: boolean];

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

/**
 * `perDto` random inputs per DTO: the compiled path gives class-validator's verdict and
 * class-transformer's instance on each. Returns how many inputs were valid and invalid.
 */
export function expectCompiledAgrees(
  dtos: readonly CheckedDto[],
  perDto = 1500,
): { valid: number; invalid: number } {
  const r = rng(Number(process.env.DTO_SEED ?? 11));
  let valid = 0;
  let invalid = 0;
  for (const [name, dto, json] of dtos) {
    const compiled = CompiledDto.compile(dto);
    expect(compiled, name).to.not.equal(undefined);
    const spec = new QuerySpec(dto, {}, json ? { json: true } : {});
    const names = spec.params.map((p) => p.name);
    for (let i = 0; i < perDto; i++) {
      const plain: Record<string, unknown> = {};
      for (const n of names) {
        if (r() < 0.4) continue;
        const text = candidates(spec, n)[Math.floor(r() * candidates(spec, n).length)];
        // JSON bodies also carry numbers, booleans, objects and arrays as such.
        const shapes = [Number(text), text === 'true', { year: text, nested: { a: [text] } }, [text], null];
        plain[n] = json && r() < 0.4 ? shapes[Math.floor(r() * shapes.length)] : text;
      }
      const fast = compiled!.instantiate(plain);
      const slow = plainToInstance(dto, plain);
      const slowValid = validateSync(slow, { forbidUnknownValues: false }).length === 0;
      const where = `${name} ${JSON.stringify(plain).slice(0, 300)}`;
      expect(compiled!.isValid(fast), where).to.equal(slowValid);
      expect(JSON.stringify(fast), where).to.equal(JSON.stringify(slow));
      if (slowValid) valid++;
      else invalid++;
    }
  }
  return { valid, invalid };
}
