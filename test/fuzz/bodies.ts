/**
 * JSON body generators. Bodies are built as text, so that what JSON.stringify cannot write (nesting
 * deeper than the stack, duplicate keys, 1e309, lone surrogates in \u escapes, invalid UTF-8)
 * reaches the server exactly as generated.
 */
import { deflateSync, gzipSync } from 'node:zlib';
import { JSON_BODY_LIMIT } from '../../core/gateway/app';
import {
  bracketName,
  chance,
  fuzzValue,
  int,
  pick,
  PROTO_NAMES,
  whitespace,
  whitespaced,
  withLoneSurrogate,
  type Rand,
} from './inputs';

/** The gateway's body limit in bytes ('16kb' is 16 × 1024 for body-parser). */
export const BODY_LIMIT = Number(/^(\d+)kb$/.exec(JSON_BODY_LIMIT)![1]) * 1024;

/** A JSON object body as [key, JSON text of the value] pairs (duplicate keys allowed). */
export type Entries = Array<[string, string]>;

export function objectText(entries: Entries): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

/** Depths that matter: around the 16-level limit, then spread log-uniformly up to 10,000. */
export function nestingDepth(r: Rand): number {
  return chance(r, 0.4) ? int(r, 1, 24) : Math.round(Math.exp(r() * Math.log(10_000)));
}

export type NestKind = 'object' | 'array' | 'mixed';

/** JSON text nested `depth` levels deep (objects, arrays or both in turn) around a leaf. */
export function nested(depth: number, kind: NestKind, leaf: string, key = 'a'): string {
  const k = JSON.stringify(key);
  const opens: string[] = [];
  const closes: string[] = [];
  for (let i = 0; i < depth; i++) {
    const obj = kind === 'object' || (kind === 'mixed' && i % 2 === 0);
    opens.push(obj ? `{${k}:` : '[');
    closes.push(obj ? '}' : ']');
  }
  return opens.join('') + leaf + closes.reverse().join('');
}

export function randomNested(r: Rand, leaf: string): string {
  return nested(
    nestingDepth(r),
    pick(r, ['object', 'array', 'mixed'] as const),
    leaf,
    pick(r, ['a', '', 'query', 'year', '__proto__']),
  );
}

/** Number literals JSON.parse accepts but reads oddly: Infinity, -0, rounding, beyond 2^53. */
export const JSON_ODD_NUMBERS: readonly string[] = [
  '1e309',
  '-1e309',
  '-0',
  '-0.0',
  '1e-400',
  '4.9e-324',
  '123456789012345678901234567890',
  '9007199254740993',
  '0.1e1',
  '1E2',
  '2026.0',
  '2026.5',
  '-2026',
];
/** Literals JSON does not allow: the body must be refused as invalid JSON, not half read. */
export const NOT_JSON_LITERALS: readonly string[] = [
  'NaN',
  'Infinity',
  '-Infinity',
  '+1',
  '.5',
  '01',
  '0x10',
  'undefined',
  "'x'",
];

/** The text inside a JSON value: a string's content, or the literal itself. */
function textOf(json: string): string {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'string' ? v : json;
  } catch {
    return json;
  }
}

/** A JSON value for a field: a fuzzed text, an odd number, a wrong type, or deep nesting. */
export function jsonValue(r: Rand, valid: string, note: (tag: string) => void = () => {}): string {
  const text = textOf(valid);
  switch (int(r, 0, 8)) {
    case 0:
    case 1:
      return JSON.stringify(whitespaced(r, text));
    case 2:
      note('lone surrogate in body');
      return JSON.stringify(withLoneSurrogate(r, text)); // written as \ud800 escapes
    case 3:
      return pick(r, JSON_ODD_NUMBERS);
    case 4:
      return pick(r, ['true', 'false', 'null', '[]', '{}', '""', `[${valid}]`, `[${valid},${valid}]`]);
    case 5:
      return pick(r, [`{"__proto__":${valid}}`, '{"__proto__":null}', '{"constructor":{"prototype":{}}}']);
    case 6:
      return JSON.stringify(fuzzValue(r, text));
    case 7:
      return randomNested(r, valid);
    default:
      return valid;
  }
}

/** A JSON object meant to pollute Object.prototype if copied blindly. */
function pollutingValue(r: Rand): string {
  return pick(r, [
    '{"polluted":true}',
    '{"__proto__":{"polluted":true}}',
    '{"prototype":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    'null',
    '"polluted"',
  ]);
}

/**
 * One to three changes to an object's entries: a value fuzzed, nested deep, duplicated, dropped,
 * or a key that is a prototype name, a bracket name or a known name wrapped in whitespace.
 */
export function mutateEntries(r: Rand, entries: Entries, note: (tag: string) => void): Entries {
  const out: Entries = entries.map(([k, v]) => [k, v]);
  const n = int(r, 1, 3);
  for (let i = 0; i < n; i++) {
    const at = int(r, 0, Math.max(out.length - 1, 0));
    const name = out[at]?.[0] ?? 'x';
    const valid = out[at]?.[1] ?? '"x"';
    switch (int(r, 0, 7)) {
      case 0:
      case 1:
        if (out[at]) out[at] = [name, jsonValue(r, valid, note)];
        break;
      case 2:
        note('deep nesting');
        if (out[at] && chance(r, 0.7)) out[at] = [name, randomNested(r, valid)];
        else out.push([pick(r, ['query', 'extra', '']), randomNested(r, '1')]);
        break;
      case 3:
        note('prototype name in body');
        out.push([pick(r, PROTO_NAMES), pollutingValue(r)]);
        break;
      case 4:
        note('duplicate key');
        out.push([name, jsonValue(r, valid, note)]);
        break;
      case 5:
        out.splice(at, 1);
        break;
      case 6:
        out.push([bracketName(r, name), valid]);
        break;
      default:
        note('whitespace in a key');
        out.push([whitespaced(r, name), valid]);
    }
  }
  return out;
}

/**
 * Whole-text damage no value-level change produces: literals JSON forbids, non-JSON whitespace
 * between tokens, a byte order mark, a cut, or a top level that is not an object.
 */
export function damageText(r: Rand, text: string): string {
  switch (int(r, 0, 5)) {
    case 0:
      return text.replace(/:([^,}]*)/, `:${pick(r, NOT_JSON_LITERALS)}`);
    case 1:
      return text.replace('{', `{${whitespace(r)}`); // JSON allows only tab, LF, CR and space
    case 2:
      return '\ufeff' + text;
    case 3:
      return text.slice(0, int(r, 0, text.length - 1));
    case 4:
      return `[${text}]`;
    default:
      return pick(r, ['', 'null', '[]', '"text"', '0', 'true', '{', '}', '{"a":1}}', '{"a" 1}']);
  }
}

/** Sizes that matter for the body limit: exactly at it, one byte either side, near, far over. */
export function bodySize(r: Rand): number {
  return pick(r, [
    BODY_LIMIT - 1,
    BODY_LIMIT,
    BODY_LIMIT + 1,
    BODY_LIMIT - int(r, 2, 256),
    BODY_LIMIT + int(r, 2, 256),
    BODY_LIMIT * 2,
    1_000_000,
  ]);
}

/**
 * A valid-looking object padded to exactly `bytes`: JSON whitespace after `{` (still valid JSON),
 * or a long text (ASCII, emoji or Unicode whitespace) in one of its fields.
 */
export function paddedBody(r: Rand, entries: Entries, bytes: number): string {
  const base = objectText(entries);
  const field = entries.length > 0 ? pick(r, entries)[0] : 'padding';
  const unit = pick(r, [' ', '\n', 'x', '🙂', '\u3000', '\u00a0']);
  const jsonSpace = unit === ' ' || unit === '\n';
  const [prefix, suffix] = jsonSpace
    ? ['{', base.slice(1)]
    : [
        `{${JSON.stringify(field)}:"`,
        `"${entries.length > 0 ? ',' + base.slice(1) : '}'}`, // a duplicate key: JSON.parse keeps the later, valid value
      ];
  let room = bytes - Buffer.byteLength(prefix + suffix);
  if (room < 0) return base;
  const unitBytes = Buffer.byteLength(unit);
  const repeats = Math.floor(room / unitBytes);
  room -= repeats * unitBytes;
  return prefix + unit.repeat(repeats) + ' '.repeat(room) + suffix;
}

/** Invalid UTF-8 bytes inside a JSON string value (they become U+FFFD, or are refused). */
export function withInvalidUtf8(r: Rand, entries: Entries): Buffer {
  const bad = pick(r, [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]]);
  const field = entries.length > 0 ? pick(r, entries)[0] : 'x';
  return Buffer.concat([
    Buffer.from(`{${JSON.stringify(field)}:"ok`),
    Buffer.from(bad),
    Buffer.from(`"${entries.length > 0 ? ',' + objectText(entries).slice(1) : '}'}`),
  ]);
}

let bombs: Record<string, Buffer> | undefined;

/** Small compressed bodies that inflate far past the body limit, and one that is not compressed at all. */
export function compressedBody(r: Rand): { encoding: string; body: Buffer } {
  if (!bombs) {
    const big = `{"owner_label":"${' '.repeat(4_000_000)}"}`;
    bombs = { gzip: gzipSync(big), deflate: deflateSync(big), broken: Buffer.from('not compressed') };
  }
  const kind = pick(r, ['gzip', 'deflate', 'broken'] as const);
  return kind === 'broken'
    ? { encoding: pick(r, ['gzip', 'deflate', 'br', 'x-unknown']), body: bombs.broken }
    : { encoding: kind, body: bombs[kind] };
}
