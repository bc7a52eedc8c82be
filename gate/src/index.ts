/**
 * The Worker: the whole site on one origin. `/api/…` is the court gate (openapi/gate.json);
 * every other path is the built site, served as static assets with its own `_headers`.
 */
import type { Report } from '../../generated/gate/types.gen';
import {
  vCheckInHeaders,
  vCheckInPath,
  vCheckInQuery,
  vCreateCallBody,
  vGetReportQuery,
  vGiveBackCallHeaders,
  vGiveBackCallPath,
  vLeaveLineHeaders,
  vLeaveLinePath,
  vRateCallBody,
  vReceiveProviderEventBody,
} from '../../generated/gate/valibot.gen';
import { botCheckRefusal } from './floor/bot-check';
import { GateConfigError, limitsFrom, missingSecrets, textLimitsFrom } from './floor/config';
import type { CourtAnswer } from './calls/court';
import { believe } from './provider/provider-numbers';
import { leaseTagOf } from './provider/provider';
import { bearer, cookie, json, problem, readJsonObject } from './floor/problem';
import { headersOf, judge, queryOf } from './floor/contract';
import {
  countEdgeRefusal,
  prove,
  proves,
  rememberCourtRefusal,
  rememberedCourtRefusal,
  REFUSED_TOKEN_WEIGHT,
  sameSecret,
  spendEdgeLimit,
  withinEdgeLimit,
} from './floor/edge';
import { identify, type Visitor } from './floor/visitor';
import { busiestDesk, endChat, handedChat, sendChatMessage, startChat } from './text/text-api';
import { busiestShelf, cardCookieFor, makeCard } from './cards/card-api';
import { serveCard } from './cards/card-page';
import { takeDownCard, takeDownWords } from './cards/card-takedown';

export { Court } from './calls/court';
export { AsnKeeper, ReplyPlaces, TextDesk } from './text/text-desk';
export { CardShelf } from './cards/card-shelf';

/** How long a visitor over the edge limiter's rate is asked to wait (its window). */
const EDGE_RETRY_SECONDS = 10;
const NOT_RATABLE = 'No rating can be taken for that call';
const NO_SUCH_CALL = 'No call of yours by that id';

function court(env: Env) {
  return env.COURT.getByName('court');
}

/** The cookie that carries the right to rate the last call admitted (only to /api/ratings). */
const RATING_COOKIE = 'pepa_rating';

/** A call's secret: its id bound to the visitor it was admitted for (to give it back). */
function callSecret(env: Env, callId: string, visitor: Visitor): Promise<string> {
  return prove(env, 'call', `${callId}:${visitor.key}`);
}

/** A ticket's secret: its id bound to the visitor it was given to. */
function ticketSecret(env: Env, ticketId: string, visitor: Visitor): Promise<string> {
  return prove(env, 'ticket', `${ticketId}:${visitor.key}`);
}

async function toResponse(
  answer: CourtAnswer,
  fresh: boolean,
  env: Env,
  request: Request,
  visitor: Visitor,
): Promise<Response> {
  if (answer.kind === 'admitted') {
    const token = await prove(env, 'rating', answer.call.id);
    const https = new URL(request.url).protocol === 'https:';
    const secure = https ? '; Secure' : '';
    const admitted = json(
      {
        status: 'admitted',
        call: answer.call,
        callSecret: await callSecret(env, answer.call.id, visitor),
        waitedSeconds: answer.waitedSeconds,
      },
      201,
      {
        'set-cookie': `${RATING_COOKIE}=${token}; Path=/api/ratings; Max-Age=86400; HttpOnly; SameSite=Strict${secure}`,
      },
    );
    // The right to make cards of Pepa's remarks in this call, sent only to /api/cards.
    admitted.headers.append('set-cookie', await cardCookieFor(env, answer.call.id, visitor, https));
    return admitted;
  }
  if (answer.kind === 'waiting') {
    const ticket = { ...answer.ticket, secret: await ticketSecret(env, answer.ticket.id, visitor) };
    return json(
      {
        status: 'waiting',
        ticket,
        retryAfterSeconds: answer.retryAfterSeconds,
        ...(answer.offered ? { offered: true } : {}),
      },
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
function unready(env: Env): Response | null {
  const missing = missingSecrets(env);
  try {
    limitsFrom(env);
    textLimitsFrom(env);
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

async function createCall(request: Request, env: Env, visitor: Visitor): Promise<Response> {
  const notReady = unready(env);
  if (notReady) return notReady;
  const body = await readJsonObject(request, 4096);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const start = judge(vCreateCallBody, body.value);
  if (!start.ok && start.unknownField) return problem('bad-request', { detail: start.detail });
  // The only other fault a start can have is its token: the bot check did not pass.
  if (!start.ok) {
    countEdgeRefusal(env, 'bot-check-failed', '/api/calls');
    return problem('bot-check-failed', { detail: start.detail });
  }
  const { botCheckToken } = start.value;
  // A court that said a moment ago it takes no one new (full, resting, closed) is not asked
  // again: the crowd gets its answer here.
  const refusal = rememberedCourtRefusal(Date.now());
  if (refusal) {
    const { code, ...extra } = refusal;
    countEdgeRefusal(env, code, '/api/calls');
    return problem(code, extra);
  }
  // Over their limits, on a closed day or with the line full, a visitor is refused without a
  // siteverify round trip.
  const early = await court(env).precheck(visitor);
  if (early) return toResponse(remembered(early), true, env, request, visitor);
  const refused = await botCheckRefusal(request, env, botCheckToken, '/api/calls');
  if (refused) return refused;
  const chat = await handedChat(request, env, visitor);
  const answer = await court(env).request(visitor, chat);
  return toResponse(remembered(answer), true, env, request, visitor);
}

/** The court's answer, a refusal that holds for every newcomer noted for the next arrivals. */
function remembered(answer: CourtAnswer): CourtAnswer {
  if (answer.kind === 'refused') rememberCourtRefusal(answer, Date.now());
  return answer;
}

/**
 * A ticket's secret, from its header, proves the ticket was given to this visitor: without it
 * the court never hears of the request. Unknown and foreign tickets, and a secret that is not
 * one, get the same answer.
 */
async function ticketProven(
  request: Request,
  env: Env,
  ticketId: string,
  visitor: Visitor,
): Promise<boolean> {
  const schema = request.method === 'DELETE' ? vLeaveLineHeaders : vCheckInHeaders;
  const headers = judge(schema, headersOf(request, schema));
  const given = headers.ok ? headers.value['Ticket-Secret'] : null;
  if (await proves(env, 'ticket', `${ticketId}:${visitor.key}`, given)) return true;
  countEdgeRefusal(env, 'ticket-gone', '/api/tickets');
  return false;
}

async function checkIn(
  url: URL,
  request: Request,
  ticketId: string,
  env: Env,
  visitor: Visitor,
): Promise<Response> {
  const notReady = unready(env);
  if (notReady) return notReady;
  const query = judge(vCheckInQuery, queryOf(url, vCheckInQuery));
  if (!query.ok) return problem('bad-request', { detail: query.detail });
  if (!(await ticketProven(request, env, ticketId, visitor))) return problem('ticket-gone');
  const chat = await handedChat(request, env, visitor);
  const answer = await court(env).checkIn(
    ticketId,
    query.value.hidden === true,
    query.value.offer === true,
    chat,
  );
  return toResponse(answer, false, env, request, visitor);
}

/**
 * `DELETE /api/calls/{callId}`: the page gives back a call it never joined. Only the visitor it
 * was admitted for holds its secret; an unknown call and another visitor's get the same 404,
 * before the court hears of it. Proven, it is 204 whether or not a place was freed (twice is
 * fine; a call the provider said is in progress keeps its place until it ends).
 */
async function giveBackCall(
  request: Request,
  env: Env,
  callId: string,
  visitor: Visitor,
): Promise<Response> {
  const params = judge(vGiveBackCallPath, { callId });
  if (!params.ok) return problem('bad-request', { detail: params.detail });
  const headers = judge(vGiveBackCallHeaders, headersOf(request, vGiveBackCallHeaders));
  const given = headers.ok ? headers.value['Call-Secret'] : null;
  if (!(await proves(env, 'call', `${callId}:${visitor.key}`, given))) {
    countEdgeRefusal(env, 'not-found', '/api/calls');
    return problem('not-found', { detail: NO_SUCH_CALL });
  }
  await court(env).giveBack(callId);
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}

/** The provider's server messages: authenticated, then applied once. */
async function providerEvent(request: Request, env: Env): Promise<Response> {
  const secret = env.GATE_WEBHOOK_SECRET ?? '';
  const given = bearer(request) ?? request.headers.get('x-vapi-secret') ?? '';
  if (!secret || !sameSecret(given, secret)) return problem('unauthorized');
  const body = await readJsonObject(request, 1024 * 1024);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const envelope = judge(vReceiveProviderEventBody, body.value);
  if (!envelope.ok) return problem('bad-request', { detail: envelope.detail });
  const event = envelope.value.message;
  const call = event.call;
  const callId = call?.id ?? null;
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

async function rateCall(request: Request, env: Env): Promise<Response> {
  const body = await readJsonObject(request, 4096);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const rating = judge(vRateCallBody, body.value);
  if (!rating.ok) return problem('bad-request', { detail: rating.detail });
  const { callId, score, comment } = rating.value;
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

/**
 * Whether a request to the owner's paths carries the owner's token (compared in constant time).
 * One that does not is counted, and weighs on its visitor's edge allowance as
 * REFUSED_TOKEN_WEIGHT requests: guessing the token meets the limiter within a few tries.
 */
async function ownerProven(
  request: Request,
  env: Env,
  visitor: Visitor,
  path: string,
): Promise<boolean> {
  if (sameSecret(bearer(request) ?? '', env.GATE_ADMIN_TOKEN ?? '')) return true;
  countEdgeRefusal(env, 'unauthorized', path);
  await spendEdgeLimit(env, visitor.key, REFUSED_TOKEN_WEIGHT - 1);
  return false;
}

/** `GET /api/report`, once the owner's token is proven. */
async function report(url: URL, env: Env): Promise<Response> {
  const query = judge(vGetReportQuery, queryOf(url, vGetReportQuery));
  if (!query.ok) return problem('bad-request', { detail: query.detail });
  const [totals, deskLoad, shelfLoad] = await Promise.all([
    court(env).report(query.value.days),
    busiestDesk(env),
    busiestShelf(env),
  ]);
  const body: Report = {
    days: totals.days.map(({ reservedUsd, spentUsd, text, textReservedUsd, hours, ...day }) => ({
      ...day,
      hours: hours.map((usd) => Math.round(usd * 100) / 100),
      spendUsd: Math.round((spentUsd + reservedUsd) * 100) / 100,
      text: {
        chats: text.chats,
        turns: text.turns,
        fromRecord: text.fromRecord,
        spendUsd: Math.round((text.spentUsd + textReservedUsd) * 100) / 100,
      },
    })),
    limits: totals.limits,
    courtLoad: totals.load,
    deskLoad,
    shelfLoad,
  };
  return json(body);
}

/** The path a refusal is counted under: without its ids, so each family of paths is one count. */
function refusalPath(path: string): string {
  return path.replace(/^\/api\/(tickets|chats|cards|calls)\/.*$/, '/api/$1');
}

function notAllowed(allowed: string): Response {
  return new Response(null, { status: 405, headers: { allow: allowed } });
}

export async function handleApi(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  const ticket = /^\/api\/tickets\/([^/]+)$/.exec(path);
  const chat = /^\/api\/chats\/([^/]+)$/.exec(path);
  const card = /^\/api\/cards\/([^/]+)$/.exec(path);
  const givenBack = /^\/api\/calls\/([^/]+)$/.exec(path);
  const message = /^\/api\/chats\/([^/]+)\/messages$/.exec(path);
  const allowed =
    path === '/api/calls' ||
    path === '/api/ratings' ||
    path === '/api/provider-events' ||
    path === '/api/chats' ||
    path === '/api/cards' ||
    path === '/api/card-takedowns' ||
    message
      ? 'POST'
      : path === '/api/report'
        ? 'GET'
        : ticket
          ? 'POST, DELETE'
          : chat || card || givenBack
            ? 'DELETE'
            : null;
  if (!allowed) return problem('not-found');
  if (!allowed.split(', ').includes(request.method)) return notAllowed(allowed);
  // The provider's servers, not a visitor: their secret is all they are asked for.
  if (path === '/api/provider-events') return providerEvent(request, env);
  // Everything else, the owner's paths included: the edge limiter first, per visitor, before
  // anything is read.
  const visitor = await identify(request, env.GATE_VISITOR_SALT ?? '');
  if (!visitor) return problem('bad-request', { detail: 'The visitor has no address' });
  const counted = refusalPath(path);
  if (!(await withinEdgeLimit(env, visitor.key))) {
    countEdgeRefusal(env, 'rate-limited', counted);
    return problem('rate-limited', { retryAfterSeconds: EDGE_RETRY_SECONDS });
  }
  if (path === '/api/report' || card || path === '/api/card-takedowns') {
    if (!(await ownerProven(request, env, visitor, counted))) return problem('unauthorized');
    if (path === '/api/card-takedowns') return takeDownWords(request, env);
    return card ? takeDownCard(request, env, card[1] ?? '') : report(url, env);
  }
  if (path === '/api/calls') return createCall(request, env, visitor);
  if (givenBack) return giveBackCall(request, env, givenBack[1] ?? '', visitor);
  if (path === '/api/chats' || message || chat) {
    const notReady = unready(env);
    if (notReady) return notReady;
    if (path === '/api/chats') return startChat(request, env, visitor);
    if (message) return sendChatMessage(request, env, message[1] ?? '', visitor);
    return endChat(request, env, chat?.[1] ?? '', visitor);
  }
  if (path === '/api/ratings') return rateCall(request, env);
  if (path === '/api/cards') {
    const notReady = unready(env);
    return notReady ?? makeCard(request, env, visitor);
  }
  // A ticket id is plain URL-safe text: anything escaped, well formed or not, is not one.
  const pathSchema = request.method === 'DELETE' ? vLeaveLinePath : vCheckInPath;
  const params = judge(pathSchema, { ticketId: ticket?.[1] ?? '' });
  if (!params.ok) return problem('bad-request', { detail: params.detail });
  const id = params.value.ticketId;
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
    if (url.pathname.startsWith('/q/')) {
      try {
        return await serveCard(request, env, url.pathname);
      } catch (error) {
        // A share page never answers 5xx: one that cannot be read sends its visitor home.
        console.error('gate: a share page failed', error);
        return Response.redirect(new URL('/', request.url).href, 302);
      }
    }
    if (!env.ASSETS) return new Response('Not found', { status: 404 });
    return env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<Env>;
