/**
 * The exchange transport's promises (issue 25), against servers that misbehave on purpose: a
 * request the server drops is answered when its deadline passes; a running tool is never cut off
 * by the deadline, and its result is sent even if the server drops it; a client that goes away
 * frees its exchange unless a tool runs for it; nothing is left open afterwards.
 */
import { expect } from 'chai';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ExchangeTransport } from '../../../core/mcp/exchange-transport';

const WITHIN_MS = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const request = (id: number | string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call' });

/** A transport whose "server" records what it received and answers nothing by itself. */
function silentServer() {
  const t = new ExchangeTransport<string>({ answerWithinMs: WITHIN_MS });
  const received: Array<{ id: number }> = [];
  t.onmessage = (m) => received.push(m as { id: number });
  return { t, received };
}

describe('MCP exchange transport: every request answered, nothing left open', () => {
  it('a request the server drops is answered -32001 under the client id once the deadline passes', async () => {
    const { t } = silentServer();
    const started = Date.now();
    const answer = await t.exchange(request('c-1'), {}, 'ctx').answer;
    expect(Date.now() - started).to.be.at.least(WITHIN_MS - 5);
    expect(answer?.status).to.equal(200);
    expect(answer?.body).to.deep.include({ jsonrpc: '2.0', id: 'c-1' });
    expect((answer?.body as { error: { code: number; message: string } }).error.code).to.equal(-32001);
    expect(t.pending).to.equal(0);
  });

  it('an error the server reports while receiving a request answers that request -32600 at once', async () => {
    const t = new ExchangeTransport<string>({ answerWithinMs: 10_000 });
    t.onmessage = () => t.serverError(new Error('Unknown message type'));
    const answer = await t.exchange(
      { jsonrpc: '2.0', id: 9, method: 'ping', extra: 1 } as JSONRPCMessage,
      {},
      'x',
    ).answer;
    expect(answer?.status).to.equal(400);
    expect((answer?.body as { id: number; error: { code: number } }).id).to.equal(9);
    expect((answer?.body as { error: { code: number } }).error.code).to.equal(-32600);
    expect(t.pending).to.equal(0);
  });

  it('gives every request its own server-side id and answers each under its own client id', async () => {
    const { t, received } = silentServer();
    const a = t.exchange(request(1), {}, 'a');
    const b = t.exchange(request(1), {}, 'b');
    expect(received.map((m) => m.id)).to.have.length(2);
    expect(new Set(received.map((m) => m.id)).size).to.equal(2);
    expect(t.contextOf(received[0].id)).to.equal('a');
    expect(t.contextOf(received[1].id)).to.equal('b');
    await t.send({ jsonrpc: '2.0', id: received[1].id, result: { who: 'b' } });
    await t.send({ jsonrpc: '2.0', id: received[0].id, result: { who: 'a' } });
    expect((await a.answer)?.body).to.deep.equal({ jsonrpc: '2.0', id: 1, result: { who: 'a' } });
    expect((await b.answer)?.body).to.deep.equal({ jsonrpc: '2.0', id: 1, result: { who: 'b' } });
  });

  it('a running tool is not cut off by the deadline; if the server drops its result, the result is sent', async () => {
    const { t, received } = silentServer();
    const ex = t.exchange(request(5), {}, 'ctx');
    const id = received[0].id;
    t.toolStarted(id);
    let settled = false;
    void ex.answer.then(() => (settled = true));
    await sleep(WITHIN_MS * 3);
    expect(settled, 'answered while the tool was running').to.equal(false);
    t.toolEnded(id, { content: [], structuredContent: { paid: true } });
    const answer = await ex.answer;
    expect(answer?.body).to.deep.equal({
      jsonrpc: '2.0',
      id: 5,
      result: { content: [], structuredContent: { paid: true } },
    });
    expect(t.pending).to.equal(0);
  });

  it('a client that goes away frees its exchange at once, unless a tool runs for it', async () => {
    const { t, received } = silentServer();
    const idle = t.exchange(request(1), {}, 'idle');
    idle.abandon();
    expect(await idle.answer).to.equal(undefined);
    const busy = t.exchange(request(2), {}, 'busy');
    t.toolStarted(received[1].id);
    busy.abandon();
    expect(t.pending).to.equal(1);
    await t.send({ jsonrpc: '2.0', id: received[1].id, result: { done: true } });
    expect((await busy.answer)?.body).to.deep.include({ id: 2 });
    expect(t.pending).to.equal(0);
  });
});
