/**
 * A local stand-in for the jGrants public API v1, speaking its documented wire format over real
 * HTTP on loopback (developers.digital.go.jp/documents/jgrants/api):
 * - GET /subsidies?keyword&sort&order&acceptance[&industry&use_purpose&target_area_search&target_number_of_employees]
 *   → {metadata:{type, resultset:{count}}, result:[list items]}; keyword (2-255 characters), sort,
 *   order and acceptance are required and checked (400 otherwise); list items carry only the list
 *   fields; `maxResults` makes an answer shorter than its count, as a truncated page would be.
 * - GET /subsidies/id/{id} → {metadata, result:[detail item]} with Base64 attachments, or 404.
 * Faults can be queued (hang, HTTP status, broken JSON, reset connection) and every request is
 * recorded, so tests can assert timeouts, retries, caching and paging.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  KEYWORD_MAX,
  KEYWORD_MIN,
  LIST_ITEM_FIELDS,
  SEARCH_ORDERS,
  SEARCH_SORTS,
  type JgrantsSubsidy,
} from '../../domain/grants/jgrants-wire';

export type Fault =
  { kind: 'hang' } | { kind: 'status'; status: number } | { kind: 'bad-json' } | { kind: 'reset' };

export interface StandinRequest {
  path: string;
  query: Record<string, string>;
}

export interface JgrantsStandin {
  /** Base URL to give the client, like https://api.jgrants-portal.go.jp/exp/v1/public. */
  baseUrl: string;
  requests: StandinRequest[];
  /** Queues faults for the next requests whose path starts with `pathPrefix` (default: any). */
  fail(fault: Fault, times?: number, pathPrefix?: string): void;
  /** Answers searches with at most this many items (resultset.count stays the full count). */
  maxResults: number | undefined;
  close(): Promise<void>;
}

export interface StandinOptions {
  items: readonly JgrantsSubsidy[];
  /** The stand-in's "now" for acceptance=1. */
  now: Date;
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase();
const listOf = (s: string | null | undefined) => (s ?? '').split('/').map((x) => x.trim());

function accepting(item: JgrantsSubsidy, now: Date): boolean {
  const start = item.acceptance_start_datetime ? Date.parse(item.acceptance_start_datetime) : -Infinity;
  const end = item.acceptance_end_datetime ? Date.parse(item.acceptance_end_datetime) : -Infinity;
  return start <= now.getTime() && now.getTime() <= end;
}

function listItem(item: JgrantsSubsidy): Partial<JgrantsSubsidy> {
  const out: Record<string, unknown> = {};
  for (const f of LIST_ITEM_FIELDS) if (f in item) out[f] = (item as unknown as Record<string, unknown>)[f];
  return out;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export async function startJgrantsStandin(options: StandinOptions): Promise<JgrantsStandin> {
  const requests: StandinRequest[] = [];
  const faults: Array<{ fault: Fault; prefix: string }> = [];
  const hanging = new Set<ServerResponse>();
  const state = { maxResults: undefined as number | undefined };

  const search = (query: URLSearchParams, res: ServerResponse) => {
    const keyword = query.get('keyword');
    const sort = query.get('sort');
    const order = query.get('order');
    const acceptance = query.get('acceptance');
    if (keyword === null || keyword.length < KEYWORD_MIN || keyword.length > KEYWORD_MAX) {
      return send(res, 400, { message: 'keyword is required (2-255 characters)' });
    }
    if (!SEARCH_SORTS.includes(sort as never) || !SEARCH_ORDERS.includes(order as never)) {
      return send(res, 400, { message: 'sort and order are required' });
    }
    if (acceptance !== '0' && acceptance !== '1')
      return send(res, 400, { message: 'acceptance must be 0 or 1' });
    const k = fold(keyword);
    const has = (list: string | null | undefined, value: string | null) =>
      value === null || value.split(' / ').some((v) => listOf(list).includes(v.trim()));
    let matches = options.items.filter(
      (i) =>
        fold([i.title, i.subsidy_catch_phrase, i.detail, i.institution_name].join('\n')).includes(k) &&
        (acceptance === '0' || accepting(i, options.now)) &&
        has(i.industry, query.get('industry')) &&
        has(i.use_purpose, query.get('use_purpose')) &&
        has(i.target_area_search, query.get('target_area_search')) &&
        (query.get('target_number_of_employees') === null ||
          i.target_number_of_employees === query.get('target_number_of_employees')),
    );
    const key = sort as 'created_date' | 'acceptance_start_datetime' | 'acceptance_end_datetime';
    const value = (i: JgrantsSubsidy) =>
      Date.parse((key === 'created_date' ? i.acceptance_start_datetime : i[key]) ?? '1970-01-01T00:00Z');
    matches = [...matches].sort((a, b) => (order === 'ASC' ? value(a) - value(b) : value(b) - value(a)));
    const shown = state.maxResults === undefined ? matches : matches.slice(0, state.maxResults);
    send(res, 200, {
      metadata: { type: 'application/json', resultset: { count: matches.length } },
      result: shown.map(listItem),
    });
  };

  const detail = (id: string, res: ServerResponse) => {
    const item = options.items.find((i) => i.id === id);
    if (!item) return send(res, 404, { message: `subsidy ${id} not found` });
    const attachment = { name: '公募要領.pdf', data: Buffer.from('%PDF-1.4 stand-in').toString('base64') };
    send(res, 200, {
      metadata: { type: 'application/json', resultset: { count: 1 } },
      result: [
        {
          ...item,
          application_guidelines: [attachment],
          outline_of_grant: [],
          application_form: [attachment],
        },
      ],
    });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const i = faults.findIndex((f) => url.pathname.startsWith(f.prefix));
    if (i >= 0) {
      const [{ fault }] = faults.splice(i, 1);
      if (fault.kind === 'hang') {
        hanging.add(res);
        return;
      }
      if (fault.kind === 'status')
        return send(res, fault.status, { message: `stand-in fault ${fault.status}` });
      if (fault.kind === 'bad-json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"metadata": {"resultset": ');
      }
      return req.socket.destroy();
    }
    if (req.method !== 'GET') return send(res, 405, { message: 'method not allowed' });
    if (url.pathname === '/subsidies') return search(url.searchParams, res);
    const m = /^\/subsidies\/id\/([^/]+)$/.exec(url.pathname);
    if (m) return detail(decodeURIComponent(m[1]), res);
    send(res, 404, { message: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    fail(fault, times = 1, pathPrefix = '/') {
      for (let n = 0; n < times; n++) faults.push({ fault, prefix: pathPrefix });
    },
    get maxResults() {
      return state.maxResults;
    },
    set maxResults(v) {
      state.maxResults = v;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
