/** Anonymous feedback: GET /feedback/schema and POST /feedback. */
import type { RequestHandler, Router } from 'express';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ERROR_REF, jsonResponse, mount, type ApiCatalog } from '../http/api-catalog';
import type { ClientIdentity } from '../http/client-identity';
import { DiscoveryDocument } from '../http/discovery-document';
import { BodySpec, invalidBodyError } from '../plugins/json-body';
import { ref } from '../http/schemas';
import { Doc, Trim } from '../plugins/query-rules';
import { examplePlugin } from '../plugins/example-plugin';
import type { QueryParamSpec, QueryProblem } from '../plugins/query-spec';
import type { PluginRegistry } from '../plugins/registry';
import { randomId } from '../util/ids';
import { findPersonalData } from './personal-data';
import type { FeedbackRecord, FeedbackRepository } from './feedback-repository';
import type { RateLimiter } from '../ratelimit/rate-limiter';
import type { Clock } from '../util/clock';

export const FEEDBACK_CATEGORIES = [
  'bug',
  'data_quality',
  'feature_request',
  'pricing',
  'documentation',
  'other',
] as const;

export class FeedbackBody {
  // The examples of product_id and endpoint_id come from the gateway's registry (feedbackExample).
  @Doc({ description: 'The product the feedback is about (one of the current sales products)' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  product_id!: string;

  @Doc({ description: 'An endpoint of that product, if the feedback is about one' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  endpoint_id?: string | null;

  @Doc({ description: 'What kind of feedback this is', example: 'data_quality' })
  @IsOptional()
  @IsIn([...FEEDBACK_CATEGORIES])
  category?: string;

  @Doc({ description: 'Overall rating from 1 (poor) to 5 (excellent)', example: 4 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  rating?: number;

  @Doc({
    description: 'Free text, up to 2000 characters; no personal data (see the privacy boundary)',
    example: 'The example answer was exactly what we needed.',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  message?: string;
}

/** A valid feedback body about the gateway's example endpoint (about its first product when nothing is sold). */
function feedbackExample(registry: PluginRegistry): Record<string, unknown> {
  const plugin = examplePlugin(registry);
  if (!plugin) return { product_id: registry.products[0]?.id ?? '<product_id>', rating: 5 };
  return { product_id: plugin.product.id, endpoint_id: plugin.endpointId, rating: 5 };
}

export const PRIVACY_BOUNDARY = {
  summary:
    'Feedback is anonymous. We keep only the fields below and the time it arrived. Your network address is never stored: ' +
    'we keep a keyed hash of it (HMAC with a secret of this deployment), used only to limit how much one client can send. ' +
    'Messages that contain personal data or secrets are refused, not stored.',
  stored: [
    'product_id',
    'endpoint_id',
    'category',
    'rating',
    'message',
    'received_at',
    'client_hash (keyed hash of the client address)',
  ],
  never_stored: [
    'client network address in clear',
    'API keys',
    'payment headers',
    'any other request header',
  ],
  refused_content: [
    'e-mail addresses (also with a local part or domain in any script, or a quoted local part)',
    'phone numbers (Japanese numbers in any grouping, also after the country code 81 with or without "+"; free-dial and navi-dial numbers pass)',
    'API keys and secret tokens',
    'wallet private keys (64 hex digits; transaction hashes look the same), PEM private keys',
    'wallet seed phrases',
    'My Numbers (個人番号, 12 digits with a valid check digit, in one group or grouped 4-4-4, 3-3-3-3 or 6-6)',
    "payment card numbers (an issuer's prefix and length, Luhn-valid, in any regular grouping)",
    'bearer tokens and JWTs',
    'passwords ("password:", "パスワード：")',
    'postal addresses (a 〒 postal code, or a street address down to the block numbers)',
    'any of these hidden by invisible characters, full-width, kanji or keycap digits, look-alike dashes, ' +
      'slashes, underscores or mixed separators between digit groups, or base64',
  ],
};

/** What the feedback routes use. */
export interface FeedbackRoutesDeps {
  readonly registry: PluginRegistry;
  readonly catalog: ApiCatalog;
  readonly clock: Clock;
  readonly feedback: FeedbackRepository;
  readonly rateLimiter: RateLimiter;
  readonly clientIdentity: ClientIdentity;
  /** Feedback messages one client address may send per hour. */
  readonly perHour: number;
  /** The JSON body parser with the gateway's size limit. */
  readonly jsonBody: RequestHandler;
}

export function mountFeedbackRoutes(router: Router, s: FeedbackRoutesDeps): void {
  const rule = { bucket: 'feedback', limit: s.perHour, windowSeconds: 3600 };
  const example = feedbackExample(s.registry);
  const feedbackBody = new BodySpec(FeedbackBody, { example });
  const productIds = s.registry.products.map((x) => x.id);
  // A field's schema, with the example this gateway's body example gives it.
  const fieldSchema = (p: QueryParamSpec) => {
    const schema = p.name === 'product_id' ? { ...p.schema, enum: productIds } : p.schema;
    return example[p.name] === undefined || schema.examples
      ? schema
      : { ...schema, examples: [example[p.name]] };
  };
  const schemaBody = {
    accepted_fields: feedbackBody.spec.params.map((p) => ({
      name: p.name,
      required: p.required,
      description: p.description,
      accepts: p.name === 'product_id' ? `one of: ${productIds.join(', ')}` : p.accepted,
      schema: fieldSchema(p),
    })),
    at_least_one_of: ['message', 'rating'],
    privacy_boundary: PRIVACY_BOUNDARY,
    json_schema: {
      ...feedbackBody.spec.objectSchema(),
      properties: Object.fromEntries(feedbackBody.spec.params.map((p) => [p.name, fieldSchema(p)])),
    },
    limits: { per_client_per_hour: rule.limit },
  };
  const schemaDocument = new DiscoveryDocument(JSON.stringify(schemaBody), 'application/json; charset=utf-8');

  mount(
    router,
    s.catalog,
    'get',
    '/feedback/schema',
    {
      operationId: 'getFeedbackSchema',
      summary: 'The accepted feedback fields and the privacy boundary, in words and as data',
      tags: ['gateway'],
      responses: {
        '200': jsonResponse('Fields, bounds, enums and the privacy boundary.', ref('FeedbackSchema')),
      },
    },
    (req, res) => schemaDocument.send(req, res),
  );

  mount(
    router,
    s.catalog,
    'post',
    '/feedback',
    {
      operationId: 'postFeedback',
      summary: 'Anonymous feedback about a current sales product',
      tags: ['gateway'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: schemaBody.json_schema,
            example,
          },
        },
      },
      responses: {
        '201': jsonResponse('Stored; the body carries the feedback id.', ref('FeedbackAccepted')),
        '400': jsonResponse(
          'The body is not a JSON object (code `invalid_body` / `invalid_json`), or a field is invalid or holds personal data (code `invalid_body`, with correction_hints naming the field and showing the JSON expected).',
          ERROR_REF,
        ),
        '429': jsonResponse(
          'Too much feedback from this client (code `rate_limited`; see Retry-After).',
          ERROR_REF,
        ),
      },
    },
    s.jsonBody,
    async (req, res) => {
      const body = feedbackBody.parse(req);
      const problems = checkFeedback(s.registry, body);
      if (problems.length > 0) throw invalidBodyError(problems);
      const client = s.clientIdentity.of(req);
      await s.rateLimiter.enforce(rule, client, res, 'feedback messages from this address');
      const record: FeedbackRecord = {
        id: randomId('fb'),
        productId: body.product_id,
        ...(body.endpoint_id ? { endpointId: body.endpoint_id } : {}),
        ...(body.category ? { category: body.category } : {}),
        ...(body.rating !== undefined ? { rating: body.rating } : {}),
        ...(body.message ? { message: body.message } : {}),
        receivedAt: s.clock.now(),
        clientHash: client,
      };
      // Committed (fsynced) before the 201: an acknowledged record survives a crash.
      await s.feedback.add(record);
      res.status(201).json({
        feedback_id: record.id,
        status: 'stored',
        received_at: record.receivedAt.toISOString(),
        privacy: PRIVACY_BOUNDARY.summary,
      });
    },
  );
}

function checkFeedback(registry: PluginRegistry, body: FeedbackBody): QueryProblem[] {
  const problems: QueryProblem[] = [];
  const products = registry.products.map((p) => p.id);
  const problem = (
    parameter: string,
    code: string,
    text: string,
    accepted: string,
    hint: string,
  ): QueryProblem => ({ parameter, code, problem: text, accepted, hint });
  if (!products.includes(body.product_id)) {
    problems.push(
      problem(
        'product_id',
        'not_allowed_value',
        `${body.product_id.slice(0, 100)} is not a current sales product`,
        `one of: ${products.join(', ')}`,
        'Use one of the product ids listed by GET /products.',
      ),
    );
  } else if (body.endpoint_id !== undefined && body.endpoint_id !== null) {
    const endpoints = registry.soldOfProduct(body.product_id).map((p) => p.endpointId);
    if (!endpoints.includes(body.endpoint_id)) {
      problems.push(
        problem(
          'endpoint_id',
          'not_allowed_value',
          `${body.endpoint_id.slice(0, 100)} is not an endpoint of ${body.product_id}`,
          `one of: ${endpoints.join(', ')}`,
          `Use an endpoint id from GET /products/${body.product_id}, or leave it out.`,
        ),
      );
    }
  }
  if (body.message === undefined && body.rating === undefined) {
    problems.push(
      problem(
        'message',
        'missing_required',
        'give a message, a rating, or both',
        'a text of 1 to 2000 characters',
        'Add "message": "..." or "rating": 1..5.',
      ),
    );
  }
  if (body.message) {
    const found = findPersonalData(body.message);
    if (found) {
      problems.push(
        problem(
          'message',
          'personal_data_refused',
          `message contains ${found.what}`,
          'text without personal data or secrets',
          `Remove ${found.what} and send again; feedback is anonymous and must not carry personal data (see GET /feedback/schema).`,
        ),
      );
    }
  }
  return problems;
}
