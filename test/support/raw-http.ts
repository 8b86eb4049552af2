/** A GET whose body is read as sent (fetch would decode a Content-Encoding and hide it). */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawRequest(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, headers);
}
