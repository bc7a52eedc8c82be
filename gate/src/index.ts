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
import { identify } from './visitor';

export { Court } from './court';

const TICKET_ID = /^[A-Za-z0-9_-]{16,64}$/;
const SCORES = new Set<Rating['score']>(['delighted', 'content', 'displeased']);

function court(env: GateEnv) {
  return env.COURT.get(env.COURT.idFromName('court'));
}

function toResponse(answer: CourtAnswer, fresh: boolean): Response {
  if (answer.kind === 'admitted') {
    return json(
      { status: 'admitted', call: answer.call, waitedSeconds: answer.waitedSeconds },
      201,
    );
  }
  if (answer.kind === 'waiting') {
    return json(
      { status: 'waiting', ticket: answer.ticket, retryAfterSeconds: answer.retryAfterSeconds },
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

async function createCall(request: Request, env: GateEnv): Promise<Response> {
  const notReady = unready(env);
  if (notReady) return notReady;
  const body = await readJsonObject(request, 4096);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const { botCheckToken } = body.value as Partial<CreateCallRequest>;
  const extra = Object.keys(body.value).filter((key) => key !== 'botCheckToken');
  if (extra.length > 0) return problem('bad-request', { detail: `Unknown field: ${extra[0]}` });
  if (typeof botCheckToken !== 'string' || !botCheckToken || botCheckToken.length > 2048) {
    await court(env).refused('bot-check-failed');
    return problem('bot-check-failed', { detail: 'botCheckToken is required' });
  }
  const visitor = await identify(request, env.GATE_VISITOR_SALT ?? '');
  if (!visitor) return problem('bad-request', { detail: 'The visitor has no address' });
  // Over their limits or on a closed day, a visitor is refused without a siteverify round trip.
  const early = await court(env).precheck(visitor);
  if (early) return toResponse(early, true);
  const check = await verifyBotCheck(botCheckToken, {
    secret: env.TURNSTILE_SECRET_KEY ?? '',
    remoteIp: request.headers.get('cf-connecting-ip'),
    ...(env.TURNSTILE_VERIFY_URL ? { url: env.TURNSTILE_VERIFY_URL } : {}),
    hostnames: siteHosts(env, request),
  });
  if (!check.ok) {
    if (check.reason === 'unavailable') {
      console.error(`gate: ${check.detail}`);
      await court(env).refused('gate-unavailable');
      return problem('gate-unavailable', { retryAfterSeconds: 10 });
    }
    await court(env).refused('bot-check-failed');
    return problem('bot-check-failed');
  }
  return toResponse(await court(env).request(visitor), true);
}

async function checkIn(url: URL, ticketId: string, env: GateEnv): Promise<Response> {
  const notReady = unready(env);
  if (notReady) return notReady;
  const hiddenParam = url.searchParams.get('hidden');
  if (hiddenParam !== null && hiddenParam !== 'true' && hiddenParam !== 'false') {
    return problem('bad-request', { detail: 'hidden must be true or false' });
  }
  return toResponse(await court(env).checkIn(ticketId, hiddenParam === 'true'), false);
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
  const outcome = await court(env).rate(callId, score, Boolean(comment?.trim()));
  if (outcome === 'not-found') return problem('not-found');
  if (outcome === 'already-rated') return problem('already-rated');
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
  };
  return json(body);
}

function notAllowed(allowed: string): Response {
  return new Response(null, { status: 405, headers: { allow: allowed } });
}

export async function handleApi(request: Request, env: GateEnv): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  if (path === '/api/calls') {
    return request.method === 'POST' ? createCall(request, env) : notAllowed('POST');
  }
  const ticket = /^\/api\/tickets\/([^/]+)$/.exec(path);
  if (ticket) {
    // A ticket id is plain URL-safe text: anything escaped, well formed or not, is not one.
    const id = ticket[1] ?? '';
    if (!TICKET_ID.test(id)) return problem('bad-request', { detail: 'Not a ticket id' });
    if (request.method === 'POST') return checkIn(url, id, env);
    if (request.method === 'DELETE') {
      await court(env).leave(id);
      return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
    }
    return notAllowed('POST, DELETE');
  }
  if (path === '/api/provider-events') {
    return request.method === 'POST' ? providerEvent(request, env) : notAllowed('POST');
  }
  if (path === '/api/ratings') {
    return request.method === 'POST' ? rateCall(request, env) : notAllowed('POST');
  }
  if (path === '/api/report') {
    return request.method === 'GET' ? report(url, request, env) : notAllowed('GET');
  }
  return problem('not-found');
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
