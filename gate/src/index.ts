/**
 * The Worker: the whole site on one origin. `/api/…` is the court gate (openapi/gate.json);
 * every other path is the built site, served as static assets with its own `_headers`.
 */
import type { CreateCallRequest, Rating, Report } from '../../generated/gate/types.gen';
import { verifyBotCheck } from './bot-check';
import { GateConfigError, limitsFrom, missingSecrets, siteHosts, type GateEnv } from './config';
import type { CourtAnswer } from './court';
import { believe } from './provider-numbers';
import { leaseTagOf } from './provider';
import { bearer, json, problem, readJsonObject, sameSecret } from './problem';
import {
  countEdgeRefusal,
  prove,
  proves,
  rememberedFull,
  rememberFull,
  withinEdgeLimit,
} from './edge';
import { identify, type Visitor } from './visitor';

export { Court } from './court';

const TICKET_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** How long a visitor over the edge limiter's rate is asked to wait (its window). */
const EDGE_RETRY_SECONDS = 10;
const NOT_RATABLE = 'No rating can be taken for that call';
const SCORES = new Set<Rating['score']>(['delighted', 'content', 'displeased']);

function court(env: GateEnv) {
  return env.COURT.get(env.COURT.idFromName('court'));
}

/**
 * The header a ticket's secret travels in (never the path: paths end up in logs). Not exported:
 * workerd takes every export of the entry module for a handler, and refuses a string.
 */
const TICKET_SECRET_HEADER = 'ticket-secret';
/** The cookie that carries the right to rate the last call admitted (only to /api/ratings). */
const RATING_COOKIE = 'pepa_rating';

/** A ticket's secret: its id bound to the visitor it was given to. */
function ticketSecret(env: GateEnv, ticketId: string, visitor: Visitor): Promise<string> {
  return prove(env, 'ticket', `${ticketId}:${visitor.key}`);
}

async function toResponse(
  answer: CourtAnswer,
  fresh: boolean,
  env: GateEnv,
  request: Request,
  visitor: Visitor,
): Promise<Response> {
  if (answer.kind === 'admitted') {
    const token = await prove(env, 'rating', answer.call.id);
    const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
    return json(
      { status: 'admitted', call: answer.call, waitedSeconds: answer.waitedSeconds },
      201,
      {
        'set-cookie': `${RATING_COOKIE}=${token}; Path=/api/ratings; Max-Age=86400; HttpOnly; SameSite=Strict${secure}`,
      },
    );
  }
  if (answer.kind === 'waiting') {
    const ticket = { ...answer.ticket, secret: await ticketSecret(env, answer.ticket.id, visitor) };
    return json(
      { status: 'waiting', ticket, retryAfterSeconds: answer.retryAfterSeconds },
      fresh ? 202 : 200,
      { 'retry-after': String(answer.retryAfterSeconds) },
    );
  }
  return problem(answer.code, {
    ...(answer.detail === undefined ? {} : { detail: answer.detail }),
    ...(answer.retryAfterSeconds === undefined
      ? {}
      : { retryAfterSeconds: answer.retryAfterSeconds }),
    ...(answer.reopensAt === undefined ? {} : { reopensAt: answer.reopensAt }),
  });
}

/** The value of one cookie of the request. */
function cookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

/** The gate is configured to admit anyone: its secrets set and its limits valid. */
function unready(env: GateEnv): Response | null {
  const missing = missingSecrets(env);
  try {
    limitsFrom(env);
  } catch (error) {
    if (error instanceof GateConfigError) {
      console.error(`gate: ${error.message}`);
      return problem('gate-unavailable', { retryAfterSeconds: 60 });
    }
    throw error;
  }
  if (missing.length > 0) {
    console.error(`gate: missing ${missing.join(', ')}`);
    return problem('gate-unavailable', { retryAfterSeconds: 60 });
  }
  return null;
}

async function createCall(request: Request, env: GateEnv, visitor: Visitor): Promise<Response> {
  const notReady = unready(env);
  if (notReady) return notReady;
  const body = await readJsonObject(request, 4096);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const { botCheckToken } = body.value as Partial<CreateCallRequest>;
  const extra = Object.keys(body.value).filter((key) => key !== 'botCheckToken');
  if (extra.length > 0) return problem('bad-request', { detail: `Unknown field: ${extra[0]}` });
  if (typeof botCheckToken !== 'string' || !botCheckToken || botCheckToken.length > 2048) {
    countEdgeRefusal(env, 'bot-check-failed', '/api/calls');
    return problem('bot-check-failed', { detail: 'botCheckToken is required' });
  }
  // A court that said it is full a moment ago is not asked again: the crowd gets its answer here.
  const full = rememberedFull(Date.now());
  if (full) {
    countEdgeRefusal(env, 'court-full', '/api/calls');
    return problem('court-full', full);
  }
  // Over their limits, on a closed day or with the line full, a visitor is refused without a
  // siteverify round trip.
  const early = await court(env).precheck(visitor);
  if (early) return toResponse(remembered(early), true, env, request, visitor);
  const check = await verifyBotCheck(botCheckToken, {
    secret: env.TURNSTILE_SECRET_KEY ?? '',
    remoteIp: request.headers.get('cf-connecting-ip'),
    ...(env.TURNSTILE_VERIFY_URL ? { url: env.TURNSTILE_VERIFY_URL } : {}),
    hostnames: siteHosts(env, request),
  });
  if (!check.ok) {
    if (check.reason === 'unavailable') {
      console.error(`gate: ${check.detail}`);
      countEdgeRefusal(env, 'gate-unavailable', '/api/calls');
      return problem('gate-unavailable', { retryAfterSeconds: 10 });
    }
    countEdgeRefusal(env, 'bot-check-failed', '/api/calls');
    return problem('bot-check-failed');
  }
  return toResponse(remembered(await court(env).request(visitor)), true, env, request, visitor);
}

/** The court's answer, with a "full" one noted for the next arrivals. */
function remembered(answer: CourtAnswer): CourtAnswer {
  if (answer.kind === 'refused' && answer.code === 'court-full') {
    rememberFull(answer.retryAfterSeconds ?? 60, Date.now());
  }
  return answer;
}

/**
 * A ticket's secret, from its header, proves the ticket was given to this visitor: without it
 * the court never hears of the request. Unknown and foreign tickets get the same answer.
 */
async function ticketProven(
  request: Request,
  env: GateEnv,
  ticketId: string,
  visitor: Visitor,
): Promise<boolean> {
  const given = request.headers.get(TICKET_SECRET_HEADER);
  if (await proves(env, 'ticket', `${ticketId}:${visitor.key}`, given)) return true;
  countEdgeRefusal(env, 'ticket-gone', '/api/tickets');
  return false;
}

async function checkIn(
  url: URL,
  request: Request,
  ticketId: string,
  env: GateEnv,
  visitor: Visitor,
): Promise<Response> {
  const notReady = unready(env);
  if (notReady) return notReady;
  const hiddenParam = url.searchParams.get('hidden');
  if (hiddenParam !== null && hiddenParam !== 'true' && hiddenParam !== 'false') {
    return problem('bad-request', { detail: 'hidden must be true or false' });
  }
  if (!(await ticketProven(request, env, ticketId, visitor))) return problem('ticket-gone');
  const answer = await court(env).checkIn(ticketId, hiddenParam === 'true');
  return toResponse(answer, false, env, request, visitor);
}

/** The provider's server messages: authenticated, then applied once. */
async function providerEvent(request: Request, env: GateEnv): Promise<Response> {
  const secret = env.GATE_WEBHOOK_SECRET ?? '';
  const given = bearer(request) ?? request.headers.get('x-vapi-secret') ?? '';
  if (!secret || !sameSecret(given, secret)) return problem('unauthorized');
  const body = await readJsonObject(request, 1024 * 1024);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const message = body.value.message;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return problem('bad-request', { detail: 'message must be an object' });
  }
  const event = message as Record<string, unknown>;
  if (typeof event.type !== 'string')
    return problem('bad-request', { detail: 'message.type is required' });
  const call = event.call as Record<string, unknown> | undefined;
  const callId = typeof call?.id === 'string' ? call.id : null;
  const leaseTag = leaseTagOf(call);
  if (event.type !== 'status-update' && event.type !== 'end-of-call-report') {
    return json({ applied: false });
  }
  if (!callId) return problem('bad-request', { detail: 'message.call.id is required' });
  const started = typeof event.startedAt === 'string' ? Date.parse(event.startedAt) : NaN;
  const ended = typeof event.endedAt === 'string' ? Date.parse(event.endedAt) : NaN;
  const reportedDuration =
    typeof event.durationSeconds === 'number'
      ? event.durationSeconds
      : Number.isFinite(started) && Number.isFinite(ended)
        ? (ended - started) / 1000
        : undefined;
  const believed = believe(
    {
      ...(typeof event.cost === 'number' ? { cost: event.cost } : {}),
      ...(reportedDuration === undefined ? {} : { durationSeconds: reportedDuration }),
    },
    limitsFrom(env),
  );
  const applied = await court(env).providerEvent({
    type: event.type,
    callId,
    ...(typeof event.status === 'string' ? { status: event.status } : {}),
    ...(believed.cost === undefined ? {} : { cost: believed.cost }),
    ...(typeof event.endedReason === 'string' ? { endedReason: event.endedReason } : {}),
    ...(believed.durationSeconds === undefined
      ? {}
      : { durationSeconds: believed.durationSeconds }),
    outliers: believed.outliers,
    ...(leaseTag ? { leaseId: leaseTag } : {}),
  });
  return json({ applied });
}

async function rateCall(request: Request, env: GateEnv): Promise<Response> {
  const body = await readJsonObject(request, 4096);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const { callId, score, comment } = body.value as Partial<Rating>;
  const extra = Object.keys(body.value).filter(
    (key) => !['callId', 'score', 'comment'].includes(key),
  );
  if (extra.length > 0) return problem('bad-request', { detail: `Unknown field: ${extra[0]}` });
  if (typeof callId !== 'string' || !callId || callId.length > 100) {
    return problem('bad-request', { detail: 'callId is required' });
  }
  if (typeof score !== 'string' || !SCORES.has(score)) {
    return problem('bad-request', { detail: 'score must be delighted, content or displeased' });
  }
  if (comment !== undefined && (typeof comment !== 'string' || comment.length > 280)) {
    return problem('bad-request', { detail: 'comment must be text of at most 280 characters' });
  }
  // Only the visitor the call was given to holds its token (a cookie set with the admission).
  // Unknown, foreign, still under way or already rated: one answer, so none can be told apart.
  if (!(await proves(env, 'rating', callId, cookie(request, RATING_COOKIE)))) {
    countEdgeRefusal(env, 'not-found', '/api/ratings');
    return problem('not-found', { detail: NOT_RATABLE });
  }
  const outcome = await court(env).rate(callId, score, Boolean(comment?.trim()));
  if (outcome !== 'ok') return problem('not-found', { detail: NOT_RATABLE });
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}

async function report(url: URL, request: Request, env: GateEnv): Promise<Response> {
  const token = env.GATE_ADMIN_TOKEN ?? '';
  if (!token || !sameSecret(bearer(request) ?? '', token)) return problem('unauthorized');
  const raw = url.searchParams.get('days') ?? '7';
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > 90) {
    return problem('bad-request', { detail: 'days must be a whole number from 1 to 90' });
  }
  const totals = await court(env).report(days);
  const body: Report = {
    days: totals.days.map(({ reservedUsd, spentUsd, ...day }) => ({
      ...day,
      spendUsd: Math.round((spentUsd + reservedUsd) * 100) / 100,
    })),
    limits: totals.limits,
    courtLoad: totals.load,
  };
  return json(body);
}

function notAllowed(allowed: string): Response {
  return new Response(null, { status: 405, headers: { allow: allowed } });
}

export async function handleApi(request: Request, env: GateEnv): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  const ticket = /^\/api\/tickets\/([^/]+)$/.exec(path);
  const allowed =
    path === '/api/calls' || path === '/api/ratings' || path === '/api/provider-events'
      ? 'POST'
      : path === '/api/report'
        ? 'GET'
        : ticket
          ? 'POST, DELETE'
          : null;
  if (!allowed) return problem('not-found');
  if (!allowed.split(', ').includes(request.method)) return notAllowed(allowed);
  if (path === '/api/provider-events') return providerEvent(request, env);
  if (path === '/api/report') return report(url, request, env);
  // What a visitor's page asks: the edge limiter first, per visitor, before anything is read.
  const visitor = await identify(request, env.GATE_VISITOR_SALT ?? '');
  if (!visitor) return problem('bad-request', { detail: 'The visitor has no address' });
  if (!(await withinEdgeLimit(env, visitor.key))) {
    countEdgeRefusal(env, 'rate-limited', ticket ? '/api/tickets' : path);
    return problem('rate-limited', { retryAfterSeconds: EDGE_RETRY_SECONDS });
  }
  if (path === '/api/calls') return createCall(request, env, visitor);
  if (path === '/api/ratings') return rateCall(request, env);
  // A ticket id is plain URL-safe text: anything escaped, well formed or not, is not one.
  const id = ticket?.[1] ?? '';
  if (!TICKET_ID.test(id)) return problem('bad-request', { detail: 'Not a ticket id' });
  if (request.method === 'POST') return checkIn(url, request, id, env, visitor);
  if (await ticketProven(request, env, id, visitor)) await court(env).leave(id);
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}

export default {
  async fetch(request, env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      try {
        return await handleApi(request, env);
      } catch (error) {
        console.error('gate: unexpected error', error);
        return problem('gate-unavailable', { retryAfterSeconds: 5 });
      }
    }
    if (!env.ASSETS) return new Response('Not found', { status: 404 });
    return env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<GateEnv>;
