/**
 * Client of the NTA Corporate Number System Web-API, version 4 (法人番号システム Web-API):
 * /num (up to 10 numbers, optionally with history) and /name (prefix or partial match on the
 * name or the English name). Answers come as XML (type=12, the default here) or Unicode CSV
 * (type=02); both are read, whichever the API returns. Layout: the NTA's Web-API specification
 * (https://www.houjin-bangou.nta.go.jp/webapi/), as public clients of it implement it.
 */
import { XMLParser } from 'fast-xml-parser';
import { parseNtaCsv } from '../files/nta-csv';
import { NTA_COLUMNS, type NtaRecord } from '../files/nta-layout';
import {
  UpstreamError,
  UpstreamHttp,
  type UpstreamHttpOptions,
  type UpstreamResponse,
} from './upstream-http';

export type NtaResponseType = '12' | '02';

export interface NtaHoujinSettings {
  appId: string;
  /** e.g. https://api.houjin-bangou.nta.go.jp/4 */
  baseUrl: string;
  responseType?: NtaResponseType;
  http?: Omit<UpstreamHttpOptions, 'name'>;
}

export interface NtaAnswer {
  lastUpdateDate: string;
  count: number;
  divideNumber: number;
  divideSize: number;
  records: NtaRecord[];
}

export interface NameQuery {
  name: string;
  /** 1 prefix match, 2 partial match. */
  mode: 1 | 2;
  /** 1 name (JIS level 1-2, fuzzy), 2 name (JIS level 1-4, exact), 3 English name. */
  target: 1 | 2 | 3;
  /** Prefecture code (2 digits) or prefecture + city code (5 digits). */
  address?: string;
  includeClosed: boolean;
  includeChangedNames: boolean;
}

export const NTA_HOUJIN_UPSTREAM = 'NTA corporate-number Web-API';

const xml = new XMLParser({
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'corporation',
});

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? '' : String(value);
}

/** Reads a Web-API answer body, XML or CSV. */
export function parseNtaAnswer(response: Pick<UpstreamResponse, 'body' | 'contentType'>): NtaAnswer {
  const body = response.body.trimStart();
  if (body.startsWith('<')) {
    const doc = xml.parse(body) as { corporations?: Record<string, unknown> };
    const root = doc.corporations;
    if (!root) throw new Error('not an NTA corporations document');
    const list = (root.corporation as Array<Record<string, unknown>> | undefined) ?? [];
    return {
      lastUpdateDate: text(root.lastUpdateDate),
      count: Number(text(root.count) || list.length),
      divideNumber: Number(text(root.divideNumber) || 1),
      divideSize: Number(text(root.divideSize) || 1),
      records: list.map((c) => {
        const r = {} as NtaRecord;
        for (const column of NTA_COLUMNS) r[column] = text(c[column]);
        return r;
      }),
    };
  }
  const { header, records } = parseNtaCsv(body);
  return {
    lastUpdateDate: header?.lastUpdateDate ?? '',
    count: header?.count ?? records.length,
    divideNumber: header?.divideNumber ?? 1,
    divideSize: header?.divideSize ?? 1,
    records,
  };
}

export class NtaHoujinClient {
  private readonly http: UpstreamHttp;
  private readonly responseType: NtaResponseType;

  constructor(private readonly settings: NtaHoujinSettings) {
    this.http = new UpstreamHttp({ name: NTA_HOUJIN_UPSTREAM, ...settings.http });
    this.responseType = settings.responseType ?? '12';
  }

  private url(endpoint: 'num' | 'name', params: Record<string, string>): URL {
    const url = new URL(`${this.settings.baseUrl.replace(/\/+$/, '')}/${endpoint}`);
    url.searchParams.set('id', this.settings.appId);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set('type', this.responseType);
    return url;
  }

  private async call(url: URL): Promise<NtaAnswer> {
    const response = await this.http.get(url);
    try {
      return parseNtaAnswer(response);
    } catch (err) {
      throw new UpstreamError(
        NTA_HOUJIN_UPSTREAM,
        'http_status',
        `${NTA_HOUJIN_UPSTREAM} answered something that is not its documented format: ${(err as Error).message}`,
        response.status,
      );
    }
  }

  /** Records of up to 10 numbers per request (longer lists are split). */
  async byNumbers(numbers: readonly string[], history = false): Promise<NtaRecord[]> {
    const out: NtaRecord[] = [];
    for (let i = 0; i < numbers.length; i += 10) {
      const chunk = numbers.slice(i, i + 10);
      const answer = await this.call(
        this.url('num', { number: chunk.join(','), history: history ? '1' : '0' }),
      );
      out.push(...answer.records);
    }
    return out;
  }

  /** The first page of a name search. */
  byName(q: NameQuery): Promise<NtaAnswer> {
    return this.call(
      this.url('name', {
        name: q.name,
        mode: String(q.mode),
        target: String(q.target),
        ...(q.address ? { address: q.address } : {}),
        change: q.includeChangedNames ? '1' : '0',
        close: q.includeClosed ? '1' : '0',
        divide: '1',
      }),
    );
  }
}
