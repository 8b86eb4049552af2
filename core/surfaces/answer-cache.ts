/**
 * A bounded cache of answers that cannot change between calls (issue 18): the payload of a
 * deterministic query, computed once, frozen, and kept with the JSON of its part of the envelope
 * (everything but the per-request `_gateway` block). Which answers may be kept is decided by the
 * executor (core/surfaces/execute.ts): the plugin opted in with `cacheableAnswers: true`, its
 * provenance is a snapshot and its handler did not read the clock. Oldest entries go first when
 * either bound (entries, bytes of JSON) is reached.
 */
import type { EndpointPayload } from '../plugins/contract';

export interface AnswerCacheLimits {
  maxEntries: number;
  /** Characters of stored JSON, all entries together. */
  maxChars: number;
}

export const DEFAULT_ANSWER_CACHE: AnswerCacheLimits = { maxEntries: 4096, maxChars: 32 * 1024 * 1024 };

interface Entry {
  payload: EndpointPayload;
  chars: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  /** The envelope's JSON without `,"_gateway":{...}}`, per cached payload object. */
  private readonly heads = new WeakMap<object, string>();
  /** `_gateway` JSON split around the request id, per constant extra object and surface/endpoint. */
  private readonly templates = new WeakMap<object, Map<string, readonly [string, string] | null>>();
  private chars = 0;
  /** Answers served from the cache. */
  hits = 0;

  constructor(private readonly limits: AnswerCacheLimits) {}

  /** The key of a validated query of an endpoint (undefined when it cannot be written as JSON). */
  static keyOf(endpointId: string, query: object): string | undefined {
    try {
      return `${endpointId}\n${JSON.stringify(query)}`;
    } catch {
      return undefined;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The keys held, oldest first. */
  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  get(key: string): EndpointPayload | undefined {
    const entry = this.entries.get(key);
    if (entry) this.hits++;
    return entry?.payload;
  }

  /**
   * Keeps a fresh answer when it is a snapshot's (and returns the payload to answer with). The
   * stored JSON is what `JSON.stringify({...payload, _notice: notice, _gateway})` writes before
   * `,"_gateway":`; a payload with a `_gateway` member of its own is not kept.
   */
  put(key: string, payload: EndpointPayload, notice: string | undefined): EndpointPayload {
    if (!isSnapshotAnswer(payload) || Object.prototype.hasOwnProperty.call(payload, '_gateway'))
      return payload;
    const whole = JSON.stringify({ ...payload, _notice: notice });
    if (whole.length <= 2 || !whole.endsWith('}')) return payload;
    const head = whole.slice(0, -1);
    if (head.length > this.limits.maxChars / 2) return payload; // one answer takes at most half
    deepFreeze(payload);
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.limits.maxEntries || this.chars + head.length > this.limits.maxChars)
    ) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldest);
      this.chars -= entry.chars;
    }
    this.entries.set(key, { payload, chars: head.length });
    this.chars += head.length;
    this.heads.set(payload, head);
    return payload;
  }

  /** The stored JSON of a payload this cache handed out (undefined for any other payload). */
  headOf(payload: object): string | undefined {
    return this.heads.get(payload);
  }

  /**
   * The `_gateway` block's JSON before and after the request id, for an `extra` object that is the
   * same on every call; `build` makes the block with `mark` as request id. Null when the mark
   * does not appear exactly once (the caller then serialises the block).
   */
  gatewayTemplate(
    extra: object,
    key: string,
    mark: string,
    build: () => object,
  ): readonly [string, string] | null {
    let byKey = this.templates.get(extra);
    if (!byKey) this.templates.set(extra, (byKey = new Map()));
    let template = byKey.get(key);
    if (template === undefined) {
      const parts = JSON.stringify(build()).split(JSON.stringify(mark));
      template = parts.length === 2 ? ([parts[0], parts[1]] as const) : null;
      byKey.set(key, template);
    }
    return template;
  }
}

/** A snapshot's answer: its provenance, and what it searched if anything, are dated snapshots. */
export function isSnapshotAnswer(payload: EndpointPayload): boolean {
  const p = payload._provenance as EndpointPayload['_provenance'] | undefined;
  return p?.kind === 'snapshot' && (p.searched === undefined || p.searched.kind === 'snapshot');
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
