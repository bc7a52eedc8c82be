/**
 * What a shared card serves: its page `/q/{id}` (HTML that needs no script, with the tags X and
 * Telegram read, every address on the site's own origin) and its image `/q/{id}/card.png`. An id
 * the gate did not make is a 404 before anything is read; both answers are kept in the Worker's
 * cache, and a takedown (card-takedown) purges them.
 */
import { GateConfigError, siteOriginFrom } from '../floor/config';
import { problem } from '../floor/problem';
import { isCardId } from './card-ids';
import { cardKey, cardUrls, downKey, imageKey, readCard, type StoredCard } from './card-store';
import { cardDate } from './words/card-words';

/** How long a share page may be kept (in the Worker's cache and by anyone on the way). */
const PAGE_MAX_AGE_S = 300;
/**
 * A card's image never changes: browsers and crawlers keep it a year. Shared caches, the Worker's
 * own in each data centre among them, keep it 5 minutes, so a takedown reaches every one of them.
 */
const IMAGE_CACHE = `public, max-age=31536000, immutable, s-maxage=${PAGE_MAX_AGE_S}`;
/** The site's own card, for a card that could not be drawn. */
const DEFAULT_CARD = '/og-image.png';

/**
 * The site's own faces, as the site's build serves them under fixed names (scripts/
 * site-html-plugin.ts emits them from src/assets/fonts/): Cinzel for the court's lettering, Inter
 * for text. Loaded by this page only, so the home page's first screen is unchanged.
 */
export const SITE_FONTS = {
  display: '/fonts/cinzel-700-display.woff2',
  text: '/fonts/inter-text.woff2',
} as const;

/** Who Pepa is and what $PEPA is, in one line under her words. */
export const WHO_PEPA_IS =
  'Pepa is the AI frog queen of $PEPA, a meme token made for fun with no promise of value.';

// Top-aligned, so a phone opens on the card, not on a third of a screen of nothing.
const STYLE = `@font-face{font-family:Cinzel;font-weight:700;font-display:swap;src:url(${SITE_FONTS.display}) format("woff2")}@font-face{font-family:Inter;font-weight:400 700;font-display:swap;src:url(${SITE_FONTS.text}) format("woff2")}body{margin:0;background:#06130c;color:#f6f0dd;font:17px/1.55 Inter,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}main{max-width:760px;margin:0 auto;padding:20px 16px 40px;box-sizing:border-box;text-align:center}@media(min-width:640px){main{padding:48px 24px}}img{display:block;width:100%;height:auto;border-radius:16px;border:1px solid #9a7220}blockquote{margin:24px 0 8px;font-size:1.35rem;white-space:pre-line}p{color:#c3cdbf;margin:20px 0 24px}a{display:inline-block;background:#e2b84a;color:#06130c;font-weight:700;text-decoration:none;padding:14px 22px;border-radius:999px}a:focus-visible{outline:3px solid #f6f0dd;outline-offset:3px}h1{font:700 .85rem/1.4 Cinzel,Georgia,serif;letter-spacing:.3em;text-transform:uppercase;color:#f5e1a0;margin:0 0 16px}`;

let styleHash: Promise<string> | null = null;

/** The page's one inline style, allowed by its hash: no script, and no other style, may run. */
function contentSecurityPolicy(): Promise<string> {
  styleHash ??= crypto.subtle
    .digest('SHA-256', new TextEncoder().encode(STYLE))
    .then((digest) => btoa(String.fromCharCode(...new Uint8Array(digest))));
  return styleHash.then(
    (hash) =>
      `default-src 'none'; img-src 'self'; font-src 'self'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );
}

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

async function page(status: number, title: string, body: string, head = ''): Promise<Response> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title>${head}<style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': status === 200 ? `public, max-age=${PAGE_MAX_AGE_S}` : 'no-store',
      'content-security-policy': await contentSecurityPolicy(),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
    },
  });
}

const WAY_IN = '<a href="/#talk">Talk to Pepa</a>';

function missing(gone: boolean): Promise<Response> {
  return gone
    ? page(
        410,
        'This card was taken down',
        `<h1>$PEPA</h1><p>The court took this card down.</p>${WAY_IN}`,
      )
    : page(404, 'No such card', `<h1>$PEPA</h1><p>There is no card here.</p>${WAY_IN}`);
}

/**
 * The site's origin a page names (`GATE_SITE_ORIGIN`); with none set, which no card is made
 * under, the page's own so a card kept from before still has a page.
 */
function siteOrigin(env: Env, request: Request): string {
  try {
    return siteOriginFrom(env);
  } catch (error) {
    if (!(error instanceof GateConfigError)) throw error;
    return new URL(request.url).origin;
  }
}

/** The share page's HTML for a stored card. */
async function sharePage(origin: string, id: string, card: StoredCard): Promise<Response> {
  const { pageUrl, imageUrl } = cardUrls(origin, id);
  const image = card.drawn ? imageUrl : `${origin}${DEFAULT_CARD}`;
  const title = 'Pepa said…';
  const quote = `“${card.words}”`;
  const when = cardDate(new Date(card.saidAt));
  const meta = [
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', '$PEPA'],
    ['property', 'og:title', title],
    ['property', 'og:description', quote],
    ['property', 'og:url', pageUrl],
    ['property', 'og:image', image],
    ['property', 'og:image:type', 'image/png'],
    ['property', 'og:image:width', '1200'],
    ['property', 'og:image:height', '630'],
    ['property', 'og:image:alt', quote],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', quote],
    ['name', 'twitter:image', image],
    ['name', 'description', quote],
  ]
    .map(([kind, name, value]) => `<meta ${kind}="${name}" content="${escape(value ?? '')}">`)
    .join('');
  const head = `<link rel="canonical" href="${escape(pageUrl)}">${meta}`;
  // The drawn card carries 'PEPA SAID', her words and the day: the page shows it once and says
  // them once (in its text alternative). A card that could not be drawn shows the site's card,
  // and her words and the day as text.
  const record = card.drawn
    ? `<img src="${escape(image)}" width="1200" height="630" alt="${escape(quote)}">`
    : `<img src="${escape(image)}" width="1200" height="630" alt=""><blockquote>${escape(quote)}</blockquote><p>Pepa, on <time datetime="${escape(card.saidAt)}">${escape(when)}</time></p>`;
  const body = `<h1>From the court of $PEPA</h1>${record}<p>${escape(WHO_PEPA_IS)}</p>${WAY_IN}`;
  return page(200, `${title} ${quote}`, body, head);
}

/** `GET /q/{id}` and `GET /q/{id}/card.png`, from the Worker's cache when it has them. */
export async function serveCard(request: Request, env: Env, path: string): Promise<Response> {
  const match = /^\/q\/([^/]+)(\/card\.png)?$/.exec(path);
  const id = match?.[1] ?? '';
  const wantsImage = Boolean(match?.[2]);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
  }
  if (!match || !(await isCardId(env, id))) {
    return wantsImage ? problem('not-found') : missing(false);
  }
  const cache = caches.default;
  const key = new Request(new URL(path, request.url).href);
  const cached = await cache.match(key);
  if (cached) return cached;
  const answer = wantsImage ? await image(env, request, id) : await shareOf(env, request, id);
  if (answer.status === 200) await cache.put(key, answer.clone());
  return answer;
}

async function shareOf(env: Env, request: Request, id: string): Promise<Response> {
  const card = await readCard(env, id);
  if (!card) return missing(Boolean(await env.CARDS.head(downKey(id))));
  return sharePage(siteOrigin(env, request), id, card);
}

async function image(env: Env, request: Request, id: string): Promise<Response> {
  const png = await env.CARDS.get(imageKey(id));
  if (png) {
    return new Response(png.body, {
      headers: {
        'content-type': 'image/png',
        'cache-control': IMAGE_CACHE,
        'x-content-type-options': 'nosniff',
      },
    });
  }
  if (await env.CARDS.head(downKey(id))) return problem('card-gone');
  if (await env.CARDS.head(cardKey(id))) {
    return Response.redirect(`${siteOrigin(env, request)}${DEFAULT_CARD}`, 302);
  }
  return problem('not-found');
}
