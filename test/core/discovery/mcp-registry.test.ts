/**
 * GET /.well-known/mcp/server.json, the MCP registry's description of this server, checked against
 * the registry's server.json schema dated 2025-12-11. That schema file is not available offline
 * (no package ships it), so SERVER_SCHEMA_2025_12_11 below encodes, in our own words, the
 * constraints it documents for every field we fill (ServerDetail, the streamable-http remote, its
 * headers), plus two rules of the official registry's publishing (the remote is on the namespace's
 * domain; `_meta` keeps only the publisher key, at most 4 KB). It is stricter than the schema in
 * one way: no member the schema does not define (it would be a typo of ours).
 */
import { expect } from 'chai';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { registryNamespace } from '../../../core/discovery/mcp-registry';
import { connectMcp } from '../../support/mcp-client';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { OpenApiValidator } from '../../support/openapi-validator';
import { randomAddress } from '../payments/payer';

const PUBLISHER_KEY = 'io.modelcontextprotocol.registry/publisher-provided';

const INPUT = {
  description: { type: 'string' },
  isRequired: { type: 'boolean' },
  isSecret: { type: 'boolean' },
  format: { enum: ['string', 'number', 'boolean', 'filepath'] },
  value: { type: 'string' },
  default: { type: 'string' },
  placeholder: { type: 'string' },
  choices: { type: 'array', items: { type: 'string' } },
};

/** server.json 2025-12-11 (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json), as documented. */
const SERVER_SCHEMA_2025_12_11 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['name', 'description', 'version'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', format: 'uri' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    // A specific version: not a range, not "latest".
    version: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      not: { pattern: '^(latest$|[\\^~<>=])|\\.[x*]$' },
    },
    websiteUrl: { type: 'string', format: 'uri' },
    repository: { type: 'object', required: ['url', 'source'] },
    icons: { type: 'array', items: { type: 'object', required: ['src'] } },
    packages: { type: 'array' },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        additionalProperties: false,
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^https?://[^\\s]+$' },
          headers: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name'],
              additionalProperties: false,
              properties: { name: { type: 'string' }, ...INPUT },
            },
          },
          variables: { type: 'object', additionalProperties: { type: 'object', properties: INPUT } },
        },
      },
    },
    _meta: {
      type: 'object',
      // The official registry keeps only the publisher's key.
      additionalProperties: false,
      properties: { [PUBLISHER_KEY]: { type: 'object' } },
    },
  },
};

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validateServer = ajv.compile(SERVER_SCHEMA_2025_12_11);

function schemaErrors(doc: unknown): string[] {
  return validateServer(doc)
    ? []
    : (validateServer.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

describe('GET /.well-known/mcp/server.json: the MCP registry entry (server.json 2025-12-11)', () => {
  for (const x402 of [false, true]) {
    describe(`on https://gateway.example.com, x402 ${x402 ? 'configured' : 'not configured'}`, () => {
      let gw: TestGateway;
      before(async () => {
        gw = await startTestGateway({
          pluginDirs: [FIXTURE_PLUGINS_DIR],
          env: {
            BASE_URL: 'https://gateway.example.com',
            ...(x402 ? { X402_PAY_TO: randomAddress(), X402_FACILITATOR_URL: 'http://127.0.0.1:9' } : {}),
          },
        });
      });
      after(() => gw.close());

      it('passes the schema, names the server in reverse DNS of the public host, and offers /mcp over Streamable HTTP with an optional X-API-Key', async () => {
        const res = await gw.get('/.well-known/mcp/server.json');
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
        const doc = res.body;
        expect(schemaErrors(doc)).to.deep.equal([]);
        const client = await connectMcp(gw, '/mcp');
        const info = client.getServerVersion()!;
        await client.close();
        expect(doc.$schema).to.equal(
          'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
        );
        expect(doc.name).to.equal(`com.example.gateway/${info.name}`);
        expect(doc.version).to.equal(info.version);
        expect(doc.title).to.equal(info.title);
        expect(doc.remotes).to.have.length(1);
        const [remote] = doc.remotes;
        expect(remote).to.deep.include({ type: 'streamable-http', url: 'https://gateway.example.com/mcp' });
        expect(remote.headers).to.have.length(1);
        expect(remote.headers[0]).to.include({ name: 'X-API-Key', isRequired: false, isSecret: true });
        expect(remote.headers[0].description).to.match(
          x402 ? /Optional: without it, tool calls are paid per call with x402/ : /x402 is not configured/,
        );
        // The registry proves a namespace by its domain: the remote is on that domain.
        expect(registryNamespace(remote.url)).to.equal(doc.name.split('/')[0]);
        const meta = doc._meta[PUBLISHER_KEY];
        expect(Buffer.byteLength(JSON.stringify(meta))).to.be.at.most(4096);
        expect(meta).to.deep.include({
          server_card: 'https://gateway.example.com/.well-known/mcp.json',
          payment: x402 ? ['api_key', 'x402'] : ['api_key'],
        });
        expect(meta.preview.url).to.equal('https://gateway.example.com/preview/mcp');
      });

      it('is listed in /.well-known/mcp.json and documented in openapi.json', async () => {
        const card = (await gw.get('/.well-known/mcp.json')).body;
        expect(card.documents.mcp_registry_server).to.equal(
          'https://gateway.example.com/.well-known/mcp/server.json',
        );
        const doc = (await gw.get('/.well-known/mcp/server.json')).body;
        const v = new OpenApiValidator((await gw.get('/openapi.json')).body);
        expect(v.responseErrors('/.well-known/mcp/server.json', 'get', '200', doc)).to.deep.equal([]);
      });
    });
  }

  it('the encoded schema refuses what the registry refuses', () => {
    const good = {
      name: 'com.example/server',
      description: 'A server.',
      version: '1.0.0',
      remotes: [{ type: 'streamable-http', url: 'https://example.com/mcp' }],
    };
    expect(schemaErrors(good)).to.deep.equal([]);
    for (const [what, bad] of [
      ['a description over 100 characters', { ...good, description: 'x'.repeat(101) }],
      ['a name without a namespace', { ...good, name: 'server' }],
      ['a name with a space', { ...good, name: 'com.example/my server' }],
      ['a version range', { ...good, version: '^1.0.0' }],
      ['"latest"', { ...good, version: 'latest' }],
      [
        'a remote that is not http(s)',
        { ...good, remotes: [{ type: 'streamable-http', url: 'ws://example.com/mcp' }] },
      ],
      ['an unknown transport', { ...good, remotes: [{ type: 'websocket', url: 'https://example.com/mcp' }] }],
      [
        'a header without a name',
        { ...good, remotes: [{ ...good.remotes[0], headers: [{ isRequired: false }] }] },
      ],
      ['_meta the registry drops', { ...good, _meta: { 'com.example/other': {} } }],
      ['no version', { name: good.name, description: good.description }],
    ] as const)
      expect(schemaErrors(bad), what).to.not.deep.equal([]);
  });

  it('the namespace is the public host in reverse DNS', () => {
    expect(registryNamespace('https://gateway.example.com')).to.equal('com.example.gateway');
    expect(registryNamespace('https://API.Example.co.jp:8443/base')).to.equal('jp.co.example.api');
    expect(registryNamespace('http://localhost:8080')).to.equal('localhost');
    expect(registryNamespace('http://127.0.0.1:8080')).to.equal('1.0.0.127');
    // An IPv6 literal has no domain (nothing to publish under); the name stays within the pattern.
    expect(registryNamespace('http://[::1]:8080')).to.match(/^[a-zA-Z0-9.-]+$/);
  });
});
