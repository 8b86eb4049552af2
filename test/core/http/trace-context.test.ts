/**
 * W3C Trace Context (issue 29, item 7): a request's traceparent is read (strictly, as the
 * recommendation parses it), logged with the request line and the request's own log lines, and a
 * request without one starts a new trace.
 */
import { expect } from 'chai';
import { outboundTraceHeaders, runInTrace, traceOf, traceparentOf } from '../../../core/http/trace-context';
import { ECHO, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const HEADER = `00-${TRACE}-${PARENT}-01`;

describe('W3C trace context', () => {
  it('reads a valid traceparent: same trace, the caller as parent, a span of our own', () => {
    const t = traceOf(HEADER, 'vendor=abc');
    expect(t).to.include({ traceId: TRACE, parentId: PARENT, flags: '01', state: 'vendor=abc' });
    expect(t.spanId)
      .to.match(/^[0-9a-f]{16}$/)
      .and.not.equal(PARENT);
    expect(traceparentOf(t)).to.equal(`00-${TRACE}-${t.spanId}-01`);
    // A later version is read by its first four fields.
    expect(traceOf(`cc-${TRACE}-${PARENT}-01-what-comes-next`, undefined).traceId).to.equal(TRACE);
  });

  it('starts a new trace for a missing or malformed traceparent', () => {
    for (const bad of [
      undefined,
      '',
      `00-${TRACE.toUpperCase()}-${PARENT}-01`,
      `ff-${TRACE}-${PARENT}-01`,
      `00-${'0'.repeat(32)}-${PARENT}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE}-${PARENT}-01-extra`,
      `00-${TRACE}-${PARENT}`,
    ]) {
      const t = traceOf(bad, 'vendor=abc');
      expect(t.traceId, String(bad))
        .to.match(/^[0-9a-f]{32}$/)
        .and.not.equal(TRACE);
      expect(t, String(bad)).to.include({ flags: '00' });
      expect(t.parentId).to.equal(undefined);
      expect(t.state).to.equal(undefined);
    }
  });

  it('gives outbound calls the trace only inside a request', async () => {
    expect(outboundTraceHeaders()).to.deep.equal({});
    const t = traceOf(HEADER, 'k=v');
    const inside = await runInTrace(t, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return outboundTraceHeaders();
    });
    expect(inside).to.deep.equal({ traceparent: `00-${TRACE}-${t.spanId}-01`, tracestate: 'k=v' });
  });

  describe('on a gateway', () => {
    let gw: TestGateway;
    const logs: string[] = [];
    before(async () => {
      gw = await startTestGateway({ ...fixtures(ECHO), logs });
    });
    after(() => gw.close());

    const lineOf = (id: string) =>
      logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.req_id === id && 'req' in l);

    it('logs the trace with each request line', async () => {
      await gw.get(`/preview/v1/${ECHO.tail}?n=1`, { traceparent: HEADER, 'X-Request-Id': 'traced-1' });
      await gw.get(`/preview/v1/${ECHO.tail}?n=1`, { 'X-Request-Id': 'untraced-1' });
      await gw.get(`/preview/v1/${ECHO.tail}?n=1`, { 'X-Request-Id': 'untraced-2' });
      const traced = lineOf('traced-1')!;
      expect(traced).to.include({ trace_id: TRACE, parent_span_id: PARENT });
      expect(traced.span_id).to.match(/^[0-9a-f]{16}$/);
      const [a, b] = [lineOf('untraced-1')!, lineOf('untraced-2')!];
      expect(a.trace_id).to.match(/^[0-9a-f]{32}$/);
      expect(a.trace_id).to.not.equal(b.trace_id);
      expect(a).to.not.have.property('parent_span_id');
    });

    it("logs it on the request's own lines too (a refused broker call)", async () => {
      await gw.post(
        '/broker/call',
        { product_id: ECHO.brokerId },
        { traceparent: HEADER, 'X-Request-Id': 'traced-2' },
      );
      expect(lineOf('traced-2')).to.include({ trace_id: TRACE, parent_span_id: PARENT });
    });
  });
});
