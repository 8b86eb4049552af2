/**
 * Every sold endpoint's tool, paid per call over MCP with a real viem signature (issue 16): the
 * unpaid call names the tool's price and terms, a payment signed for them buys the first example's
 * answer with exactly one settlement of exactly that price, and the same payment is then refused.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';
import { randomAddress, TestPayer, usdcOnBase } from '../payments/payer';

const NOW_ISO = '2026-11-23T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;

describe('MCP /mcp: every tool paid per call with x402', function () {
  this.timeout(120_000);
  let standin: FacilitatorStandin;
  let gw: TestGateway;
  let client: Client;
  const payTo = randomAddress();

  before(async () => {
    standin = await startFacilitatorStandin({ now: () => NOW });
    gw = await startTestGateway({
      clock: NOW_ISO,
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    client = await connectMcp(gw, '/mcp');
  });
  after(async () => {
    await client.close();
    await gw.close();
    await standin.close();
  });

  it('each of the 21 tools: PaymentRequired at its price, one settle for the paid call, the replay refused', async () => {
    const sold = gw.gateway.registry.sold();
    expect(sold).to.have.length(21);
    for (const plugin of sold) {
      const args = plugin.manifest.examples[0].query as Record<string, unknown>;
      const unpaid = structured(await callTool(client, plugin.endpointId, args));
      expect(unpaid.accepts[0], plugin.endpointId).to.include({
        amount: String(plugin.priceMicroUsdc),
        network: 'eip155:8453',
      });
      expect(unpaid.accepts[0].payTo.toLowerCase()).to.equal(payTo.toLowerCase());

      const payer = new TestPayer();
      const terms = usdcOnBase(payTo, plugin.priceMicroUsdc);
      const payment = payer.v2(await payer.sign(terms, NOW), terms, unpaid.resource.url);
      const paid = await callTool(client, plugin.endpointId, args, { 'x402/payment': payment });
      expect(
        paid.isError,
        `${plugin.endpointId}: ${JSON.stringify(paid.structuredContent).slice(0, 300)}`,
      ).to.not.equal(true);
      const body = structured(paid);
      expect(body._gateway).to.include({ endpoint_id: plugin.endpointId, paid_by: 'x402' });
      const transfers = standin.transfersFrom(payer.address);
      expect(transfers, plugin.endpointId).to.have.length(1);
      expect(transfers[0].value).to.equal(String(plugin.priceMicroUsdc));

      const replay = structured(await callTool(client, plugin.endpointId, args, { 'x402/payment': payment }));
      expect(replay.error, plugin.endpointId).to.equal('payment_already_used');
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
    }
  });
});
