/**
 * openapi.json for tools (issue 29, item 4): the credentials as security schemes (X-API-Key, x402's
 * payment headers, the marketplace secrets) with `security` on every operation, so Swagger UI offers
 * "Authorize"; error responses as problem details; parameter examples typed as their schemas.
 */
import { expect } from 'chai';
import { compileErrors, validate } from '@readme/openapi-parser';
import { fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';

interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema?: { type?: string }; example?: unknown }>;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

describe('openapi.json: security schemes, problem responses and typed examples', () => {
  let gw: TestGateway;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: Record<string, Record<string, unknown>>;
  };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, path, op })),
    );

  before(async () => {
    gw = await startTestGateway({
      ...fixtures(),
      env: {
        X402_PAY_TO: '0x1111111111111111111111111111111111111111',
        X402_FACILITATOR_URL: 'http://127.0.0.1:9',
      },
    });
    doc = (await gw.get('/openapi.json')).body;
  });
  after(() => gw.close());

  it('stays a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
  });

  it('declares the API key and x402 as security schemes', () => {
    expect(doc.components.securitySchemes).to.deep.include({
      ApiKey: doc.components.securitySchemes.ApiKey,
    });
    expect(doc.components.securitySchemes.ApiKey).to.include({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(doc.components.securitySchemes.x402).to.include({
      type: 'apiKey',
      in: 'header',
      name: 'X-PAYMENT',
    });
    expect(doc.components.securitySchemes.x402PaymentSignature).to.include({ name: 'PAYMENT-SIGNATURE' });
  });

  it('gives every operation its security; credential headers are schemes, not parameters', () => {
    const credentials =
      /^(x-api-key|x-payment|payment-signature|x-marketplace-proxy-secret|x-service-marketplace-secret)$/i;
    for (const { where, path, op } of operations()) {
      expect(op.security, where).to.be.an('array');
      expect(
        (op.parameters ?? []).filter((p) => p.in === 'header' && credentials.test(p.name)),
        where,
      ).to.deep.equal([]);
      if (path.startsWith('/preview/')) expect(op.security, where).to.deep.equal([]);
      if (path.startsWith('/v1/'))
        expect(op.security, where).to.deep.equal([{ x402: [] }, { x402PaymentSignature: [] }]);
    }
    expect(doc.paths['/broker/call'].post.security).to.deep.equal([{ ApiKey: [] }]);
    expect(doc.paths['/keys/status'].get.security).to.deep.equal([{ ApiKey: [] }]);
    expect(doc.paths['/keys/create'].post.security).to.deep.equal([]);
    expect(doc.paths['/health'].get.security).to.deep.equal([]);
  });

  it('documents error bodies as application/problem+json, except the 402 challenge the spec fixes', () => {
    for (const { where, path, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || !response.content) continue;
        const types = Object.keys(response.content);
        if (status === '402' && path.startsWith('/v1/'))
          expect(types, where).to.deep.equal(['application/json']);
        else if (path.endsWith('/mcp') || path === '/keys/status' || path.startsWith('/health'))
          continue; // JSON-RPC refusals, the spec's text 401, a health report (not an error)
        else expect(types, `${where} ${status}`).to.deep.equal(['application/problem+json']);
      }
    }
    expect(doc.paths['/broker/call'].post.responses['402'].content).to.have.key('application/problem+json');
  });

  it('types each parameter example as its schema: integers and booleans are not text', () => {
    let checked = 0;
    for (const { where, op } of operations()) {
      for (const p of op.parameters ?? []) {
        if (p.example === undefined) continue;
        const type = p.schema?.type;
        if (type === 'integer') expect(Number.isInteger(p.example), `${where} ${p.name}`).to.equal(true);
        else if (type === 'boolean') expect(p.example, `${where} ${p.name}`).to.be.a('boolean');
        else if (type === 'string') expect(p.example, `${where} ${p.name}`).to.be.a('string');
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(0);
    const n = doc.paths['/preview/v1/local/fx/echo'].get.parameters!.find((p) => p.name === 'n')!;
    expect(n.example).to.be.a('number');
  });
});
