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
 * The request log line is built as one string (issue 18); it must be what pino writes for the
 * same call, byte for byte apart from the time, and go through the same redaction.
 */
describe('request log line built as one string', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger('info', sink, ['configured-secret-value-123']);
  const untimed = (line: string) => line.replace(/"time":\d+/, '"time":0');
  const viaPino = (
    req: IncomingMessage,
    statusCode: number,
    responseTime: number,
    msg: string,
    level: 'info' | 'warn' | 'error',
  ) => {
    logger[level](
      {
        req_id: req.id,
        ...traceFields(req.trace),
        req: describeRequest(req, redactorOf(logger)),
        res: { statusCode },
        responseTime,
      },
      msg,
    );
    return lines.pop()!;
  };

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
      it(`request ${i}, ${status}${aborted ? ' aborted' : ''}: the same line as pino's`, () => {
        const req = r as IncomingMessage;
        logRequest(logger, req, status, performance.now(), aborted);
        const ours = lines.pop()!;
        const time = (JSON.parse(ours) as { responseTime: number }).responseTime;
        const msg = aborted ? `${r.method} aborted by the client` : `${r.method} ${status}`;
        expect(untimed(ours)).to.equal(untimed(viaPino(req, status, time, msg, level)));
        expect(ours).to.not.include('configured-secret-value-123');
        expect(ours).to.not.include('jpgw_live_0123');
      });
    }
  }
});
