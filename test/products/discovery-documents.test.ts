/**
 * Product-wide: every endpoint sold from plugins/ is in every discovery document, has its portal
 * page, answers its every example as its published schema says, and the kernel's examples name
 * one of them. Whatever plugins/ holds: no count, no endpoint named (the kernel's own behaviour
 * is tested on its fixture plugins in test/core/discovery/).
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../support/gateway';
import {
  expectBrokerManifestListsEverySold,
  expectEveryExampleAnswerMatchesItsSchema,
  expectLlmsTxtListsEverySold,
  expectPortalMdDocumentsEverySold,
  expectPortalPageForEverySold,
} from '../support/discovery-checks';

describe('discovery documents of every sold endpoint in plugins/', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ clock: '2026-11-23T03:00:00Z' });
  });
  after(() => gw.close());

  it('sells at least one endpoint', () => {
    expect(gw.gateway.registry.sold().length).to.be.greaterThan(0);
  });

  it('the broker manifest lists every sold endpoint-level id', async () => {
    await expectBrokerManifestListsEverySold(gw);
  });

  it('llms.txt lists every sold endpoint with its price and broker id', async () => {
    await expectLlmsTxtListsEverySold(gw);
  });

  it('portal.md documents every sold endpoint', async () => {
    await expectPortalMdDocumentsEverySold(gw);
  });

  it('the HTML portal has a page for every sold endpoint, with try-it, price, parameters and samples', async () => {
    await expectPortalPageForEverySold(gw);
  });

  it('the preview answer to every example of every sold endpoint validates against its published schema', async () => {
    await expectEveryExampleAnswerMatchesItsSchema(gw);
  });

  it("the kernel's examples (broker and feedback bodies, portal paths) name a sold endpoint", async () => {
    const sold = gw.gateway.registry.sold();
    const doc = (await gw.get('/openapi.json')).body;
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].example;
    expect(sold.map((p) => p.brokerId)).to.include(body('/broker/call').product_id);
    expect(sold.map((p) => p.endpointId)).to.include(body('/feedback').endpoint_id);
    const param = doc.paths['/portal/endpoints/{endpointId}'].get.parameters[0];
    expect(sold.map((p) => p.endpointId)).to.include(param.example);
  });
});
