import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import {
  createLogger,
  describeRequest,
  logRequest,
  redactorOf,
  traceFields,
} from '../../../core/http/logging';
import { traceOf } from '../../../core/http/trace-context';

/**
 * The request log line (written through pino's public API since issue 35): the request's id, its
 * trace, the request as logged (allow-listed headers, credential headers as "[redacted]", masked
 * query values), the status and the time, at the level the outcome calls for, and no secret.
 */
describe('request log line', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger('info', sink, ['configured-secret-value-123']);
  const LEVELS = { info: 30, warn: 40, error: 50 } as const;

  const requests: Array<Partial<IncomingMessage> & { id: string }> = [
    {
      id: 'abc',
      method: 'GET',
      url: '/preview/v1/local/fx/echo?n=3',
      headers: { 'user-agent': 'autocannon' },
    },
    {
      id: 'r-"quoted"\\',
      method: 'POST',
      url: '/broker/call?api_key=sk_live_abcdefghijklmnopqrstuvwxyz&x=1',
      headers: {
        'user-agent': 'ünïcødé \u2028 "ua" \u0001',
        'content-type': 'application/json',
        'content-length': '42',
        'x-api-key': 'jpgw_live_0123456789abcdef0123456789abcdef',
        'payment-signature': 'eyJ4NDAyVmVyc2lvbiI6Mn0=',
        authorization: 'Bearer configured-secret-value-123',
        referer: `https://example.com/${'a'.repeat(290)}configured-secret-value-123${'b'.repeat(40)}`,
        origin: 'https://portal.example',
        'x-forwarded-for': '203.0.113.9',
      },
    },
    { id: 'no-headers', method: 'DELETE', url: '/x?token=configured-secret-value-123', headers: {} },
    {
      id: 'traced',
      method: 'GET',
      url: '/health',
      headers: {},
      trace: traceOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', undefined),
    },
    { id: 'new-trace', method: 'GET', url: '/health', headers: {}, trace: traceOf(undefined, undefined) },
  ];

  for (const [i, r] of requests.entries()) {
    for (const [status, aborted, level] of [
      [200, false, 'info'],
      [503, false, 'error'],
      [200, true, 'warn'],
    ] as const) {
      it(`request ${i}, ${status}${aborted ? ' aborted' : ''}: the line at level ${level}`, () => {
        const req = r as IncomingMessage;
        logRequest(logger, req, status, performance.now(), aborted);
        const ours = lines.pop()!;
        const line = JSON.parse(ours) as Record<string, unknown> & { req: Record<string, unknown> };
        expect(line).to.include({
          level: LEVELS[level],
          service: 'jp-gateway',
          req_id: r.id,
          msg: aborted ? `${r.method} aborted by the client` : `${r.method} ${status}`,
        });
        expect(line.res).to.deep.equal({ statusCode: status });
        expect(line.responseTime).to.be.a('number');
        expect(line.req).to.deep.equal(JSON.parse(JSON.stringify(describeRequest(req, redactorOf(logger)))));
        expect(line).to.include(traceFields(r.trace));
        if (!r.trace) expect(line).to.not.have.property('trace_id');
        for (const h of ['x-api-key', 'payment-signature', 'authorization'])
          if (r.headers?.[h]) expect((line.req.headers as Record<string, string>)[h]).to.equal('[redacted]');
        expect(ours).to.not.include('configured-secret-value-123');
        expect(ours).to.not.include('jpgw_live_0123');
        expect(ours).to.not.include('sk_live_abc');
      });
    }
  }
});
