/**
 * A local stand-in for the two NTA Web-APIs we cannot reach from here, speaking their documented
 * wire formats over real HTTP on loopback (https://www.houjin-bangou.nta.go.jp/webapi/ and
 * https://www.invoice-kohyo.nta.go.jp/web-api/index.html, as public clients of them implement them):
 * - corporate numbers, v4: GET /4/num and /4/name with id, type=12 (XML) or 02 (Unicode CSV with
 *   a first line lastUpdateDate,count,divideNumber,divideSize), errors as "NNN,message" text;
 * - invoice issuers, v1: GET /1/num with id, number=T...(up to 10), type=21 (JSON).
 * Faults can be injected: a delay, failures of the first N requests, a fixed error status.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NTA_COLUMNS, recordToCsvLine, type NtaRecord } from '../../domain/registry/files/nta-layout';

export interface StandinAnnouncement {
  registratedNumber: string;
  process: string;
  correct?: string;
  kind: string;
  country?: string;
  latest: string;
  registrationDate: string;
  updateDate: string;
  disposalDate: string;
  expireDate: string;
  address: string;
  name: string;
  kana?: string;
}

/**
 * A corporation's registration as the register publishes it: a new one (process 01), latest,
 * registered and updated on 2023-10-01 (the start of the system) unless said otherwise.
 */
export function registration(
  registratedNumber: string,
  name: string,
  address: string,
  over: Partial<StandinAnnouncement> = {},
): StandinAnnouncement {
  return {
    registratedNumber,
    process: '01',
    kind: '2',
    latest: '1',
    registrationDate: '2023-10-01',
    updateDate: '2023-10-01',
    disposalDate: '',
    expireDate: '',
    address,
    name,
    ...over,
  };
}

export interface StandinOptions {
  appId: string;
  records?: NtaRecord[];
  announcements?: StandinAnnouncement[];
  lastUpdateDate?: string;
  /** The number of pages (divideSize) a /4/name answer reports, as a long NTA answer is split. */
  namePages?: number;
}

export interface StandinFaults {
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Answer this status to the next N requests, then behave. */
  failNext?: { count: number; status: number };
  /** Answer this status to every request. */
  alwaysStatus?: number;
}

export interface RequestLog {
  path: string;
  query: URLSearchParams;
  userAgent: string | undefined;
  /** The W3C trace context the request carried. */
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

export interface NtaStandin {
  url: string;
  houjinBaseUrl: string;
  invoiceBaseUrl: string;
  requests: RequestLog[];
  faults: StandinFaults;
  close(): Promise<void>;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function corporationsXml(records: NtaRecord[], lastUpdateDate: string, pages = 1): string {
  const items = records
    .map((r, i) => {
      const fields = NTA_COLUMNS.map((c) => {
        const v = c === 'sequenceNumber' ? String(i + 1) : r[c];
        return v === '' ? `<${c}/>` : `<${c}>${xmlEscape(v)}</${c}>`;
      }).join('');
      return `<corporation>${fields}</corporation>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><corporations><lastUpdateDate>${lastUpdateDate}</lastUpdateDate><count>${records.length}</count><divideNumber>1</divideNumber><divideSize>${pages}</divideSize>${items}</corporations>`;
}

function corporationsCsv(records: NtaRecord[], lastUpdateDate: string, pages = 1): string {
  const lines = records.map((r, i) => recordToCsvLine({ ...r, sequenceNumber: String(i + 1) }));
  return [`${lastUpdateDate},${records.length},1,${pages}`, ...lines].join('\n') + '\n';
}

const fold = (s: string) => s.normalize('NFKC').replace(/\s/g, '').toLowerCase();

export async function startNtaStandin(options: StandinOptions): Promise<NtaStandin> {
  const requests: RequestLog[] = [];
  const faults: StandinFaults = {};
  const lastUpdateDate = options.lastUpdateDate ?? '2026-11-20';
  const records = options.records ?? [];
  const announcements = options.announcements ?? [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    const q = url.searchParams;
    requests.push({
      path: url.pathname,
      query: q,
      userAgent: req.headers['user-agent'],
      traceparent: req.headers.traceparent as string | undefined,
      tracestate: req.headers.tracestate as string | undefined,
    });
    const send = (status: number, body: string, type = 'text/plain; charset=UTF-8') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    const answer = () => {
      if (faults.alwaysStatus) return send(faults.alwaysStatus, `${faults.alwaysStatus},injected failure`);
      if (faults.failNext && faults.failNext.count > 0) {
        faults.failNext.count--;
        return send(faults.failNext.status, `${faults.failNext.status},injected failure`);
      }
      if (q.get('id') !== options.appId) return send(404, '010,アプリケーションIDが登録されていません');

      if (url.pathname === '/4/num' || url.pathname === '/4/name') {
        const type = q.get('type');
        if (type !== '12' && type !== '02') return send(400, '051,応答形式が正しくありません');
        let found: NtaRecord[];
        if (url.pathname === '/4/num') {
          const numbers = (q.get('number') ?? '').split(',');
          if (numbers.length === 0 || numbers.length > 10 || numbers.some((n) => !/^[0-9]{13}$/.test(n))) {
            return send(400, '050,法人番号が正しくありません');
          }
          const history = q.get('history') === '1';
          found = records.filter((r) => numbers.includes(r.corporateNumber) && (history || r.latest === '1'));
        } else {
          const name = q.get('name');
          if (!name) return send(400, '100,商号又は名称が指定されていません');
          const mode = q.get('mode') ?? '1';
          const target = q.get('target') ?? '1';
          const address = q.get('address');
          const close = q.get('close') !== '0';
          const needle = fold(name);
          found = records.filter((r) => {
            if (r.latest !== '1' || r.hihyoji === '1') return false;
            if (!close && r.closeDate) return false;
            if (address && !r.prefectureCode.startsWith(address.slice(0, 2))) return false;
            const hay = fold(target === '3' ? r.enName : r.name);
            return mode === '2' ? hay.includes(needle) : hay.startsWith(needle);
          });
        }
        const pages = url.pathname === '/4/name' ? (options.namePages ?? 1) : 1;
        return type === '12'
          ? send(200, corporationsXml(found, lastUpdateDate, pages), 'application/xml; charset=UTF-8')
          : send(200, corporationsCsv(found, lastUpdateDate, pages), 'text/csv; charset=UTF-8');
      }

      if (url.pathname === '/1/num') {
        if (q.get('type') !== '21') return send(400, '0001,type');
        const numbers = (q.get('number') ?? '').split(',');
        if (numbers.length > 10) return send(400, '400-0002,too many numbers');
        const found = announcements.filter((a) => numbers.includes(a.registratedNumber) && a.latest === '1');
        return send(
          200,
          JSON.stringify({
            lastUpdateDate,
            count: String(found.length),
            divideNumber: '1',
            divideSize: '1',
            announcement: found,
          }),
          'application/json; charset=UTF-8',
        );
      }
      return send(404, 'not found');
    };
    if (faults.delayMs) setTimeout(answer, faults.delayMs);
    else answer();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    houjinBaseUrl: `${url}/4`,
    invoiceBaseUrl: `${url}/1`,
    requests,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A record in the NTA layout with every field not given left empty (test data). */
export function makeRecord(fields: Partial<NtaRecord>): NtaRecord {
  const r = {} as NtaRecord;
  for (const c of NTA_COLUMNS) r[c] = fields[c] ?? '';
  if (!fields.latest) r.latest = '1';
  return r;
}
