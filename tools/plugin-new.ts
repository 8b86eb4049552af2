/**
 * Scaffolds a plugin folder for a product team:
 *   npm run plugin:new -- <endpoint-id> --product <id> --tail <tail> --price <micro-usdc> [--root <dir>]
 * The new plugin has lifecycle `draft` (nothing is sold before review), boots, and comes with a
 * test that starts the real gateway with just this plugin and passes unchanged.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import { PRODUCTS } from '../config/products';
import { PROJECT_ROOT } from '../config/paths';

export interface ScaffoldRequest {
  endpointId: string;
  product: string;
  tail: string;
  priceMicroUsdc: number;
  root: string;
}

const ENDPOINT_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
const TAIL = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

/** Checks a request the way the kernel will check the manifest at boot; returns the problems. */
export function checkRequest(r: ScaffoldRequest): string[] {
  const problems: string[] = [];
  const product = PRODUCTS.find((p) => p.id === r.product);
  if (!ENDPOINT_ID.test(r.endpointId))
    problems.push('endpoint-id must be <family>-<slug> in lower-case letters, digits and dashes');
  if (!product) problems.push(`--product must be one of: ${PRODUCTS.map((p) => p.id).join(', ')}`);
  if (!TAIL.test(r.tail))
    problems.push('--tail must be segments of lower-case letters, digits and dashes separated by "/"');
  if (product) {
    if (!r.endpointId.startsWith(`${product.family}-`))
      problems.push(`endpoint-id must start with "${product.family}-"`);
    if (r.tail.split('/')[0] !== product.family) problems.push(`--tail must start with "${product.family}/"`);
    const { min, max } = product.priceRangeMicroUsdc;
    if (!Number.isSafeInteger(r.priceMicroUsdc) || r.priceMicroUsdc < min || r.priceMicroUsdc > max) {
      problems.push(`--price must be an integer of micro-USDC within ${product.id}'s band ${min}..${max}`);
    }
  }
  if (existsSync(path.join(r.root, 'plugins', r.endpointId)))
    problems.push(`plugins/${r.endpointId} already exists`);
  return problems;
}

function className(endpointId: string): string {
  return endpointId
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

export async function scaffold(r: ScaffoldRequest): Promise<string[]> {
  const name = className(r.endpointId);
  const dir = path.join(r.root, 'plugins', r.endpointId);
  const files: Record<string, string> = {
    [path.join(dir, 'query.ts')]:
      `import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Doc, ToBool } from '../../core/plugins/query-rules';

/** Query parameters, validated on every surface before anything is charged. */
export class ${name}Query {
  @Doc({ description: 'TODO: describe this parameter', example: 'example' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @Doc({ description: 'Adds diagnostic fields' })
  @IsOptional()
  @ToBool()
  @IsBoolean()
  verbose: boolean = false;
}
`,
    [path.join(dir, 'handler.ts')]: `import { injectable } from 'tsyringe';
import type { DataCoverage, EndpointHandler, EndpointPayload, HandlerContext } from '../../core/plugins/contract';
import type { ${name}Query } from './query';

export interface ${name}Payload extends EndpointPayload {
  name: string;
}

/**
 * TODO: answer from a real public source (shared rules belong in domain/). Until then the payload
 * says plainly that it is a scaffold, and the draft lifecycle keeps it off every public surface.
 */
@injectable()
export class ${name}Handler implements EndpointHandler<${name}Query, ${name}Payload> {
  handle(query: ${name}Query, ctx: HandlerContext): ${name}Payload {
    return {
      name: query.name,
      _attribution: 'TODO: name the publisher and the licence (scaffold output: no data source yet)',
      _provenance: { kind: 'snapshot', as_of: ctx.now.toISOString().slice(0, 10), sources: [{ name: 'none (scaffold)' }] },
    };
  }

  /** What the data covers (snapshot date and size, or live), shown in /product-status.json. */
  coverage(now: Date): DataCoverage {
    return { kind: 'snapshot', as_of: now.toISOString().slice(0, 10), summary: 'TODO: what the data covers (scaffold: no data source yet).' };
  }
}
`,
    [path.join(dir, 'schema.ts')]: `import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

export const payloadSchema = {
  type: 'object',
  required: ['name', '_attribution', '_provenance'],
  properties: {
    name: { type: 'string' },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
`,
    [path.join(dir, 'manifest.ts')]: `import { definePlugin } from '../../core/plugins/contract';
import { ${name}Handler } from './handler';
import { ${name}Query } from './query';
import { payloadSchema } from './schema';

export default definePlugin({
  endpointId: '${r.endpointId}',
  product: '${r.product}',
  tail: '${r.tail}',
  priceMicroUsdc: ${r.priceMicroUsdc},
  // draft: mounted nowhere public and listed nowhere until reviewed and set to paid_open.
  lifecycle: 'draft',
  summary: 'TODO: one line a buyer understands',
  source: { name: 'TODO: the public source', freshness: 'TODO: how fresh the data is' },
  query: ${name}Query,
  handler: ${name}Handler,
  payloadSchema,
  examples: [{ query: { name: 'example' } }],
});
`,
    [path.join(r.root, 'test', 'plugins', `${r.endpointId}.test.ts`)]: `import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../support/gateway';

describe('plugin ${r.endpointId}', () => {
  let gw: TestGateway;
  before(async () => {
    // Just this plugin; mountDrafts serves the draft on the preview surface for this test only.
    gw = await startTestGateway({ plugins: ['${r.endpointId}'], mountDrafts: true });
  });
  after(() => gw.close());

  it('answers its example query with the payload and the _gateway block', async () => {
    const res = await gw.get('/preview/v1/${r.tail}?name=example');
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('example');
    expect(res.body._gateway).to.include({ endpoint_id: '${r.endpointId}', surface: 'preview' });
  });

  it('refuses a query without its required parameter with correction_hints', async () => {
    const res = await gw.get('/preview/v1/${r.tail}');
    expect(res.status).to.equal(422);
    expect(res.body.correction_hints[0]).to.include({ parameter: 'name', code: 'missing_required' });
  });
});
`,
  };
  mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(r.root, 'test', 'plugins'), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    // Formatted with the project's Prettier settings so the new folder passes `npm run lint`.
    const options = (await prettier.resolveConfig(file)) ?? {};
    writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
  }
  return Object.keys(files).map((f) => path.relative(r.root, f));
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      product: { type: 'string' },
      tail: { type: 'string' },
      price: { type: 'string' },
      root: { type: 'string' },
    },
  });
  const request: ScaffoldRequest = {
    endpointId: positionals[0] ?? '',
    product: values.product ?? '',
    tail: values.tail ?? '',
    priceMicroUsdc: Number(values.price),
    root: path.resolve(values.root ?? PROJECT_ROOT),
  };
  const problems = checkRequest(request);
  if (problems.length > 0) {
    console.error(`plugin:new refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    console.error(
      'usage: npm run plugin:new -- <endpoint-id> --product <id> --tail <tail> --price <micro-usdc>',
    );
    return 2;
  }
  const written = await scaffold(request);
  console.log(`Created (lifecycle draft):\n${written.map((f) => `  ${f}`).join('\n')}`);
  console.log(
    'Next: fill in query.ts, handler.ts and schema.ts, run npm test, then set lifecycle to paid_open after review.',
  );
  return 0;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
