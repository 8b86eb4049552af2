/**
 * POST /keys/watches, GET /keys/watches, DELETE /keys/watches/{id}, GET /keys/watches/events:
 * a key's watches of the domain's subjects and the events delivered (or not yet) to them. The
 * signing secret is answered once, at creation; it is in no list, log line or error.
 */
import express, { type Request, type Router } from 'express';
import { ERROR_REF, jsonResponse, mount, type ApiCatalog } from '../http/api-catalog';
import { HttpError } from '../http/errors';
import { invalidBodyError, jsonObjectBody } from '../plugins/json-body';
import type { QueryProblem } from '../plugins/query-spec';
import { requireApiKey } from '../keys/api-key-auth';
import type { KeyIdentity, KeyLedger } from '../keys/key-ledger';
import type { Clock } from '../util/clock';
import { randomId } from '../util/ids';
import { formatUsd } from '../util/money';
import { checkUrlForm, hostOf, resolvePublic } from './address-guard';
import { newSigningSecret } from './signing';
import type { EventPosition, EventRecord, KeyEventCounts } from './watch-repository';
import { MAX_WAITING_EVENTS_PER_KEY, MAX_WATCHES_PER_KEY, type Watches } from './watches';

/** Subjects one watch may hold. */
export const MAX_SUBJECTS = 1_000;
const EVENTS_PAGE = 100;
const MAX_SHOWN_PROBLEMS = 20;
/** 1,000 identifiers and a URL need more than the gateway's usual 16 kB. */
const WATCH_BODY_LIMIT = '64kb';

/** What the watch routes use besides the watches. */
export interface WatchRoutesDeps {
  readonly catalog: ApiCatalog;
  readonly clock: Clock;
  readonly keys: KeyLedger;
}

export function mountWatchRoutes(router: Router, s: WatchRoutesDeps, w: Watches): void {
  const src = w.source;
  const field = src.subjectsField;
  const example = { [field]: [src.exampleSubject], url: 'https://example.com/webhooks/jp-gateway' };
  const keyHeader = { name: 'X-API-Key', in: 'header', required: true, schema: { type: 'string' } };
  const price = { micro_usdc: src.priceMicroUsdc, usdc: formatUsd(src.priceMicroUsdc) };
  const auth = requireApiKey(s.keys);
  const keyOf = (res: { locals: Record<string, unknown> }) => res.locals.key as KeyIdentity;

  mount(
    router,
    s.catalog,
    'post',
    '/keys/watches',
    {
      operationId: 'createWatch',
      summary: `Watch up to ${MAX_SUBJECTS} identifiers: each change is POSTed to your URL, signed (Standard Webhooks)`,
      description: `\`${field}\`: 1 to ${MAX_SUBJECTS} of ${src.subjectText} (duplicates folded). \`url\`: https, resolving to public addresses only; redirects are not followed. The answer holds the signing secret (whsec_...), shown once. Each delivered event costs ${price.usdc} USD (${price.micro_usdc} micro-USDC) from the key's credit; undelivered events cost nothing.`,
      tags: ['broker'],
      parameters: [keyHeader],
      requestBody: { required: true, content: { 'application/json': { example } } },
      responses: {
        '201': jsonResponse('The watch, with its signing secret (shown once).', { type: 'object' }),
        '400': jsonResponse(
          'The body is not a JSON object with the fields expected (code `invalid_body`).',
          ERROR_REF,
        ),
        '401': jsonResponse('Missing or invalid API key.', ERROR_REF),
        '409': jsonResponse(
          `The key holds ${MAX_WATCHES_PER_KEY} watches (code \`watch_limit_reached\`), or ${MAX_WAITING_EVENTS_PER_KEY} events waiting for delivery (code \`watch_backlog_full\`).`,
          ERROR_REF,
        ),
        '422': jsonResponse(
          'The URL is refused (code `invalid_webhook_url`) or an identifier is not valid (code `invalid_watch_subjects`).',
          ERROR_REF,
        ),
      },
    },
    auth,
    express.json({ limit: WATCH_BODY_LIMIT, strict: true }),
    async (req, res) => {
      const key = keyOf(res);
      const body = jsonObjectBody(req, example);
      const unknown = Object.keys(body).filter((k) => k !== field && k !== 'url');
      const missing = [field, 'url'].filter((k) => body[k] === undefined);
      if (unknown.length > 0 || missing.length > 0) {
        throw invalidBodyError([
          ...missing.map((k) =>
            problem(
              k,
              'is required',
              k === 'url' ? 'an https URL' : `a list of ${src.subjectText}`,
              JSON.stringify(example[k]),
            ),
          ),
          ...unknown.map((k) =>
            problem(k, 'is not a field of a watch', `only ${field} and url`, JSON.stringify(example)),
          ),
        ]);
      }
      const subjects = checkSubjects(w, body[field]);
      const url = await checkUrl(w, body.url);
      if ((await w.repo.countWatches(key.id)) >= MAX_WATCHES_PER_KEY) {
        throw new HttpError(
          409,
          'watch_limit_reached',
          `This key holds ${MAX_WATCHES_PER_KEY} watches, the most one key may hold.`,
          {
            hint: `Remove one with DELETE /keys/watches/{id}, or watch up to ${MAX_SUBJECTS} identifiers in one watch.`,
          },
        );
      }
      const counts = await w.repo.keyCounts(key.id);
      if (counts.waiting >= MAX_WAITING_EVENTS_PER_KEY) {
        throw new HttpError(
          409,
          'watch_backlog_full',
          `This key has ${counts.waiting} events waiting for delivery, the most one key may hold: new events of its watches are dropped (counted in GET /keys/watches/events) until deliveries catch up.`,
          {
            hint: 'GET /keys/watches/events shows why they wait (last_error: the receiver does not answer 2xx, or insufficient_credit). Fix the receiver or add credit, or remove watches you do not need; events not delivered within 72 hours of being recorded fail.',
            counts: countsView(counts),
          },
        );
      }
      const watch = {
        id: randomId('wh'),
        keyId: key.id,
        url,
        secret: newSigningSecret(),
        subjects,
        createdAt: s.clock.now(),
      };
      await w.repo.createWatch(watch);
      req.log?.info({ key_id: key.id, watch_id: watch.id, subjects: subjects.length }, 'watch created');
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({
        id: watch.id,
        url,
        [field]: subjects,
        created_at: watch.createdAt.toISOString(),
        secret: watch.secret,
        event_type: src.eventType,
        price_per_delivered_event: price,
        notice:
          'Store the secret now: it is shown once. Every delivery carries webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks): verify the signature with it.',
        next: {
          list: 'GET /keys/watches',
          events: 'GET /keys/watches/events',
          remove: `DELETE /keys/watches/${watch.id}`,
        },
      });
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/keys/watches',
    {
      operationId: 'listWatches',
      summary: "The key's watches (without their secrets)",
      tags: ['broker'],
      parameters: [keyHeader],
      responses: {
        '200': jsonResponse('The watches, oldest first.', { type: 'object' }),
        '401': jsonResponse('Missing or invalid API key.', ERROR_REF),
      },
    },
    auth,
    async (_req, res) => {
      const watches = await w.repo.listWatches(keyOf(res).id);
      res.setHeader('Cache-Control', 'no-store');
      res.json({
        watches: watches.map((x) => ({
          id: x.id,
          url: x.url,
          [field]: x.subjects,
          created_at: x.createdAt.toISOString(),
        })),
        price_per_delivered_event: price,
      });
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/keys/watches/events',
    {
      operationId: 'listWatchEvents',
      summary:
        "The key's events, newest first: status, attempts, next attempt, last error; and its counts of waiting, expired and dropped events",
      tags: ['broker'],
      parameters: [
        keyHeader,
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: EVENTS_PAGE },
        },
        { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: {
        '200': jsonResponse(
          `A page of events with has_more and next_cursor, and \`counts\`: events waiting (at most ${MAX_WAITING_EVENTS_PER_KEY}), expired (failed: not delivered within 72 hours) and dropped (never recorded: the key's waiting events were at the cap).`,
          { type: 'object' },
        ),
        '401': jsonResponse('Missing or invalid API key.', ERROR_REF),
        '422': jsonResponse('limit or cursor is not valid (code `invalid_query`).', ERROR_REF),
      },
    },
    auth,
    async (req, res) => {
      const { limit, after } = pageOf(req);
      const [events, counts] = await Promise.all([
        w.repo.listEvents(keyOf(res).id, limit + 1, after),
        w.repo.keyCounts(keyOf(res).id),
      ]);
      const page = events.slice(0, limit);
      const last = page[page.length - 1];
      const more = events.length > limit;
      res.setHeader('Cache-Control', 'no-store');
      res.json({
        events: page.map(eventView),
        has_more: more,
        next_cursor: more && last ? encodePosition(last) : null,
        counts: countsView(counts),
      });
    },
  );

  mount(
    router,
    s.catalog,
    'delete',
    '/keys/watches/:id',
    {
      operationId: 'deleteWatch',
      summary: 'Removes a watch; its undelivered events are cancelled (never charged)',
      tags: ['broker'],
      parameters: [keyHeader, { name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '204': { description: 'Removed.' },
        '401': jsonResponse('Missing or invalid API key.', ERROR_REF),
        '404': jsonResponse('This key has no watch with this id (code `watch_not_found`).', ERROR_REF),
      },
    },
    auth,
    async (req, res) => {
      const key = keyOf(res);
      const id = String(req.params.id);
      if (!(await w.repo.deleteWatch(key.id, id))) {
        throw new HttpError(404, 'watch_not_found', 'This API key has no watch with this id.', {
          hint: 'GET /keys/watches lists the watches of this key.',
        });
      }
      req.log?.info({ key_id: key.id, watch_id: id }, 'watch removed');
      res.status(204).end();
    },
  );
}

function problem(parameter: string, text: string, accepted: string, exampleValue: string): QueryProblem {
  return {
    parameter,
    code: 'invalid',
    problem: `${parameter} ${text}`,
    accepted,
    example: exampleValue,
    hint: `Give ${parameter} as ${accepted}, e.g. ${exampleValue}.`,
  };
}

/** The subjects in stored form, duplicates folded, or 422 naming each one refused. */
function checkSubjects(w: Watches, value: unknown): string[] {
  const src = w.source;
  const field = src.subjectsField;
  const refuse = (message: string, hints: unknown[] = []) =>
    new HttpError(422, 'invalid_watch_subjects', message, {
      hint: `Send ${field} as a list of 1 to ${MAX_SUBJECTS} of ${src.subjectText}, e.g. ["${src.exampleSubject}"].`,
      ...(hints.length > 0 ? { correction_hints: hints } : {}),
    });
  if (!Array.isArray(value)) throw refuse(`${field} must be a list.`);
  if (value.length === 0) throw refuse(`${field} is empty: a watch needs at least one.`);
  const folded = new Set<string>();
  const hints: unknown[] = [];
  value.forEach((v, i) => {
    const checked = src.validateSubject(v);
    if (checked.ok) folded.add(checked.subject);
    else
      hints.push({
        parameter: `${field}[${i}]`,
        problem: checked.problem,
        accepted: checked.accepted,
        example: src.exampleSubject,
      });
  });
  if (hints.length > 0)
    throw refuse(
      `${hints.length} of the ${value.length} entries of ${field} are not valid.`,
      hints.slice(0, MAX_SHOWN_PROBLEMS),
    );
  if (folded.size > MAX_SUBJECTS)
    throw refuse(`${field} holds ${folded.size} different entries; a watch holds at most ${MAX_SUBJECTS}.`);
  return [...folded].sort();
}

/** The URL, checked as a delivery will check it (its host resolved), or 422. */
async function checkUrl(w: Watches, value: unknown): Promise<string> {
  const form = checkUrlForm(value, w.settings.allowLoopback);
  if (!form.ok)
    throw new HttpError(422, 'invalid_webhook_url', `The webhook URL is refused: ${form.problem}.`, {
      hint: form.hint,
    });
  const resolved = await resolvePublic(hostOf(form.url), w.settings.allowLoopback, w.settings.lookup);
  if (!resolved.ok) {
    throw new HttpError(422, 'invalid_webhook_url', `The webhook URL is refused: ${resolved.problem}.`, {
      hint: 'Give an https URL whose host resolves only to public addresses: deliveries never go to loopback, private, link-local or metadata addresses.',
    });
  }
  return form.url.toString();
}

function eventView(e: EventRecord) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: e.id,
    watch_id: e.watchId,
    subject: e.subject,
    status: e.status,
    attempts: e.attempts,
    next_attempt_at: e.status === 'pending' ? iso(e.nextAttemptAt) : null,
    last_error: e.lastError,
    last_status: e.lastStatus,
    created_at: e.createdAt.toISOString(),
    delivered_at: iso(e.deliveredAt),
    payload: JSON.parse(e.body) as unknown,
  };
}

function countsView(c: KeyEventCounts) {
  return {
    waiting: c.waiting,
    waiting_cap: MAX_WAITING_EVENTS_PER_KEY,
    expired: c.expired,
    dropped: c.dropped,
    last_dropped_at: c.lastDroppedAt ? c.lastDroppedAt.toISOString() : null,
  };
}

const CURSOR = /^([0-9]{1,15})\.([A-Za-z0-9_-]{1,64})$/;

function encodePosition(e: EventRecord): string {
  return Buffer.from(`${e.createdAt.getTime()}.${e.id}`).toString('base64url');
}

function pageOf(req: Request): { limit: number; after?: EventPosition } {
  const q = req.query as Record<string, unknown>;
  const problems: QueryProblem[] = [];
  let limit = EVENTS_PAGE;
  if (q.limit !== undefined) {
    const n = Number(q.limit);
    if (typeof q.limit !== 'string' || !/^[0-9]{1,4}$/.test(q.limit) || n < 1 || n > EVENTS_PAGE)
      problems.push(
        problem('limit', `must be a whole number from 1 to ${EVENTS_PAGE}`, `1..${EVENTS_PAGE}`, '20'),
      );
    else limit = n;
  }
  let after: EventPosition | undefined;
  if (q.cursor !== undefined) {
    const m =
      typeof q.cursor === 'string' ? CURSOR.exec(Buffer.from(q.cursor, 'base64url').toString('utf8')) : null;
    if (!m)
      problems.push(
        problem(
          'cursor',
          'is not a cursor this service wrote',
          'the next_cursor of the previous page, unchanged',
          '(next_cursor)',
        ),
      );
    else after = { createdAt: new Date(Number(m[1])), id: m[2] };
  }
  if (problems.length > 0) {
    throw new HttpError(422, 'invalid_query', `The query has ${problems.length} problem(s).`, {
      invalid_parameters: problems.map((p) => p.parameter),
      correction_hints: problems,
    });
  }
  return { limit, ...(after ? { after } : {}) };
}
