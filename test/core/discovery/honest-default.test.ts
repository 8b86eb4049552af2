/**
 * An honest default (issue 27): a gateway started without X402_PAY_TO or without a facilitator
 * says in one start-up line that paid paths answer 503 payments_not_configured and which settings
 * switch x402 on, and no document it serves promises a 402 that will not come: every GET document
 * openapi.json lists (JSON, text, Markdown, HTML; the portal's pages of every product and
 * endpoint), plus the MCP server's instructions and tool list, read sentence by sentence. With
 * x402 configured the same documents do describe the 402 handshake.
 */
import { expect } from 'chai';
import { connectMcp } from '../../support/mcp-client';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { FIXTURE_PLUGINS_DIR } from '../../support/gateway';
import { randomAddress } from '../payments/payer';

const PAY_TO = randomAddress();
const FACILITATOR = 'http://127.0.0.1:9';

/** Mentions a 402 challenge or an x402 PaymentRequired. */
const MENTIONS_402 = /\b402\b|PaymentRequired|payment challenge/;
/**
 * Says when it holds, or is about something else that is a 402: the sentence names the
 * configuration (x402 "configured" or not, the X402_PAY_TO setting), or is about a key's credit.
 */
const CONDITIONAL = /configured|X402_PAY_TO|insufficient_credit/i;

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The sentences of a document: JSON string values, text lines, HTML blocks, split at sentence ends. */
function sentences(body: string, type: string): string[] {
  let blocks: string[];
  if (type.includes('json')) {
    blocks = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') {
        if (!v.startsWith('#/')) blocks.push(...v.split('\n'));
      } else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(JSON.parse(body));
  } else if (type.includes('html')) {
    // Source lines are wrapped anywhere: a block (paragraph, table row, item, code) is the unit.
    blocks = decodeEntities(
      body
        .replace(/<\/(p|li|tr|h[1-6]|summary|dt|dd|blockquote|pre|div|section)>/g, '\u0000')
        .replace(/<[^>]+>/g, ' '),
    )
      .replace(/\s+/g, ' ')
      .split('\u0000');
  } else {
    blocks = body.split('\n');
  }
  return blocks.flatMap((b) => b.split(/(?<=[.!?])\s+/)).map((x) => x.trim());
}

/** The sentences of every GET document the gateway lists, by path; and of its MCP server. */
async function everyDocument(gw: TestGateway): Promise<Map<string, string[]>> {
  const openapi = (await gw.get('/openapi.json')).body as {
    paths: Record<
      string,
      { get?: { 'x-endpoint-id'?: string; responses: Record<string, { content?: object }> } }
    >;
  };
  const products = gw.gateway.registry.products.map((p) => p.id);
  const endpoints = gw.gateway.registry.sold().map((p) => p.endpointId);
  const docs = new Map<string, string[]>();
  for (const [template, item] of Object.entries(openapi.paths)) {
    const op = item.get;
    // Data answers are not documents; a 200 without a text body (redirects, streams) says nothing.
    if (!op || op['x-endpoint-id'] !== undefined) continue;
    const types = Object.keys(op.responses['200']?.content ?? {});
    if (!types.some((t) => /json|text\/(plain|markdown|html)/.test(t))) continue;
    const params = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const values = params.length === 0 ? [[]] : params.length > 1 ? [] : [valuesOf(params[0]!)];
    const paths =
      params.length === 0 ? [template] : (values[0] ?? []).map((v) => template.replace(/\{\w+\}/, v));
    for (const path of paths) {
      const res = await gw.get(path);
      if (res.status !== 200) continue;
      docs.set(path, sentences(res.text, res.headers.get('content-type') ?? ''));
    }
  }
  const client = await connectMcp(gw, '/mcp');
  try {
    docs.set('MCP initialize instructions', sentences(client.getInstructions() ?? '', 'text/plain'));
    docs.set('MCP tools/list', sentences(JSON.stringify(await client.listTools()), 'application/json'));
  } finally {
    await client.close();
  }
  return docs;

  function valuesOf(param: string): string[] {
    if (param === 'endpointId') return endpoints;
    if (param === 'productId' || param === 'id') return products;
    return [];
  }
}

/** The sentences of each document that promise a 402 unconditionally. */
function promises(docs: Map<string, string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [path, list] of docs) {
    const found = list.filter((s) => MENTIONS_402.test(s) && !CONDITIONAL.test(s));
    if (found.length > 0) out.set(path, found);
  }
  return out;
}

describe('an honest default: without x402 configured nothing promises a 402', () => {
  for (const [label, env, unset] of [
    ['without X402_PAY_TO', {}, ['X402_PAY_TO', 'X402_FACILITATOR_URL']],
    ['with a facilitator but without X402_PAY_TO', { X402_FACILITATOR_URL: FACILITATOR }, ['X402_PAY_TO']],
  ] as const) {
    describe(label, () => {
      let gw: TestGateway;
      const logs: string[] = [];
      before(async () => {
        gw = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR], env: { ...env }, logs });
      });
      after(() => gw.close());

      it('says in one start-up line that paid paths answer 503 payments_not_configured, and which settings switch x402 on; and they do', async () => {
        const lines = logs
          .map((l) => JSON.parse(l) as { msg: string; channel?: string })
          .filter((l) => /payments_not_configured/.test(l.msg));
        expect(lines, 'start-up lines naming payments_not_configured').to.have.length(1);
        const msg = lines[0]!.msg;
        expect(msg).to.match(
          /paid paths \/v1\/\.\.\. answer 503 payments_not_configured to every request, paid or not/,
        );
        expect(msg).to.match(/no 402 challenge/);
        expect(msg).to.include(`${unset.join(' and ')} ${unset.length > 1 ? 'are' : 'is'} unset`);
        expect(msg).to.include('To open it: set X402_PAY_TO and X402_FACILITATOR_URL');
        for (const p of gw.gateway.registry.sold()) {
          const res = await gw.get(`/v1/${p.tail}`);
          expect(res.status, p.endpointId).to.equal(503);
          expect(res.body.error, p.endpointId).to.equal('payments_not_configured');
        }
      });

      it('no document, page, code sample or MCP text promises a 402', async () => {
        const docs = await everyDocument(gw);
        for (const id of gw.gateway.registry.sold().map((p) => p.endpointId))
          expect([...docs.keys()]).to.include(`/portal/endpoints/${id}`);
        expect([...docs.keys()]).to.include.members([
          '/llms.txt',
          '/portal.md',
          '/portal/x402',
          '/openapi.json',
        ]);
        expect(Object.fromEntries(promises(docs))).to.deep.equal({});
      });

      it('the portal x402 page and llms.txt say what a paid path answers, how to buy meanwhile and how x402 is switched on', async () => {
        const page = (await gw.get('/portal/x402')).text;
        expect(page).to.include('Not configured on this deployment.');
        expect(page).to.include('<strong>503 <code>payments_not_configured</code></strong>');
        expect(page).to.include('<code>X402_PAY_TO</code> and <code>X402_FACILITATOR_URL</code>');
        expect(page).to.include('/portal/keys');
        // No marketplace is configured here: the page does not send buyers to one.
        expect(page).to.not.include('marketplace listing');
        const llms = (await gw.get('/llms.txt')).text;
        expect(llms).to.include('[not configured on this deployment]:');
        expect(llms).to.match(/curl -i '[^']+\/v1\/[^']+'\s+# -> 503 payments_not_configured/);
        expect(llms).to.include(
          'The operator switches x402 on by setting X402_PAY_TO and X402_FACILITATOR_URL',
        );
      });
    });
  }

  describe('with x402 configured', () => {
    let gw: TestGateway;
    const logs: string[] = [];
    before(async () => {
      gw = await startTestGateway({
        pluginDirs: [FIXTURE_PLUGINS_DIR],
        env: {
          X402_PAY_TO: PAY_TO,
          X402_FACILITATOR_URL: FACILITATOR,
          MARKETPLACE_SECRETS: 'a-marketplace-secret-123',
        },
        logs,
      });
    });
    after(() => gw.close());

    it('logs no payments_not_configured line, and the documents describe the 402 handshake', async () => {
      expect(logs.filter((l) => /payments_not_configured/.test(l))).to.deep.equal([]);
      const found = promises(await everyDocument(gw));
      for (const path of [
        '/llms.txt',
        '/portal.md',
        '/portal/x402',
        '/portal/errors',
        '/openapi.json',
        'MCP initialize instructions',
        ...gw.gateway.registry.sold().map((p) => `/portal/endpoints/${p.endpointId}`),
      ])
        expect(found.get(path), path).to.not.equal(undefined);
      const page = (await gw.get('/portal/x402')).text;
      expect(page).to.include('Status here: <strong>open</strong>');
      expect(page).to.include('the answer is <strong>402</strong>');
    });

    it('the x402 page tells buyers how to retry (payment identifier, redemption ticket) and how agents find them', async () => {
      const page = (await gw.get('/portal/x402')).text;
      for (const words of [
        'payment-identifier',
        'payment_identifier_conflict',
        'Idempotent-Replayed',
        'Payment-Redemption-Ticket',
        'settlement_pending',
        'bazaar',
        'serviceName',
      ])
        expect(page, words).to.include(words);
      const md = (await gw.get('/portal.md')).text;
      expect(md).to.include('payment-identifier').and.to.include('bazaar');
    });
  });
});
