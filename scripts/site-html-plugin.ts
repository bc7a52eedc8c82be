import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import type { OutputAsset, OutputBundle } from 'rolldown';
import { loadEnv } from 'vite';
import { parseSiteConfig, type SiteConfig } from '../src/config/site-config.ts';
import { escapeAttribute } from './lib/inline-html.mjs';
import { IN_PAGE_FAMILIES } from './lib/font-subsets.mjs';
import { fontFaceRules, INSTALL_FONTS_HASH, installFontsTag } from './lib/install-fonts.mjs';
import { START_AFTER_PAINT_HASH, startAfterPaintTag } from './lib/start-after-paint.mjs';
import { EARLY_TAPS_HASH, earlyTapsTag } from './lib/early-taps.mjs';

/**
 * The domains daily-js serves its call machine from: `daily.co`, and the two it fails over to
 * when a network blocks `daily.co` (so a visitor on such a network still reaches Pepa by voice).
 * It loads the call machine from `c.<domain>` (a script, with `avoidEval`), which joins the room
 * on `<team>.<domain>` over HTTPS and WebSocket and starts its workers from there. `npm run
 * budget` and a unit test read the installed package and fail when it uses a host this policy
 * lacks, or when this list names one it does not use (scripts/lib/daily-hosts.mjs).
 */
export const DAILY_DOMAINS = ['daily.co', 'dailywebrtc.com', 'dailywebrtc.net'] as const;
/** Where daily-js sends its own error reports after a fatal call error. */
export const DAILY_ERROR_REPORTING = 'https://o77906.ingest.sentry.io';

/** Cloudflare Turnstile, the gate's bot check: its script, and the frame it runs its check in. */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

const DAILY_HOSTS = DAILY_DOMAINS.map((domain) => `https://*.${domain}`);
const DAILY_SOCKETS = DAILY_DOMAINS.map((domain) => `wss://*.${domain}`);

/**
 * The page's Content-Security-Policy. No 'unsafe-eval', and three inline scripts, each allowed by
 * its hash: the one that installs the page's fonts (scripts/lib/install-fonts.mjs), the one that
 * starts the app after the first paint (scripts/lib/start-after-paint.mjs) and the one that keeps
 * the taps made before it starts (scripts/lib/early-taps.mjs). The demo's local mock
 * origin is allowed only in demo builds.
 */
export function contentSecurityPolicy(config: SiteConfig): string {
  const live = config.voice.mode === 'live';
  // The gate is the page's own origin ('self'); only a static-only build calls the provider, and
  // the demo tells its local stand-in provider when a simulated room is left.
  const gated = live && config.voice.route === 'gate';
  const api = gated ? [] : [new URL(config.voice.apiUrl).origin];
  const botCheck = gated ? [TURNSTILE_ORIGIN] : [];
  const scripts = [
    "'self'",
    INSTALL_FONTS_HASH,
    START_AFTER_PAINT_HASH,
    EARLY_TAPS_HASH,
    ...botCheck,
  ];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', live ? [...scripts, ...DAILY_HOSTS] : scripts],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'"]],
    ['media-src', ["'self'", 'blob:']],
    [
      'connect-src',
      live
        ? ["'self'", ...api, ...DAILY_HOSTS, ...DAILY_SOCKETS, DAILY_ERROR_REPORTING]
        : ["'self'", ...api],
    ],
    ['worker-src', live ? ["'self'", 'blob:', ...DAILY_HOSTS] : ["'self'", 'blob:']],
    ['frame-src', gated ? botCheck : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** The `_headers` file static hosts (Netlify, Cloudflare Pages, …) apply to every response. */
export function headersFile(config: SiteConfig): string {
  const csp = `${contentSecurityPolicy(config)}; frame-ancestors 'none'`;
  return [
    '/*',
    `  Content-Security-Policy: ${csp}`,
    '  Permissions-Policy: microphone=(self), camera=(), geolocation=(), payment=(), usb=()',
    '  Referrer-Policy: strict-origin-when-cross-origin',
    '  X-Content-Type-Options: nosniff',
    '  X-Frame-Options: DENY',
    '  Cross-Origin-Opener-Policy: same-origin',
    '/assets/*',
    '  Cache-Control: public, max-age=31536000, immutable',
    '',
  ].join('\n');
}

/**
 * The site's two font files under fixed names, beside the hashed ones the page itself uses: a
 * card's share page (gate/src/cards/card-page.ts, SITE_FONTS) links them by these names.
 */
export const FIXED_NAME_FONTS = ['cinzel-700-display.woff2', 'inter-text.woff2'] as const;

/**
 * Validates the site configuration when Vite starts (a bad deployment fails with a readable
 * list of problems), fills the page head from it, makes built pages paint from their HTML alone
 * (see "How the page arrives" in docs/static-hosting.md), and emits the `_headers` file.
 */
export function siteHtmlPlugin(): Plugin {
  let config: SiteConfig;
  return {
    name: 'pepa-site-html',
    config() {
      return {
        // One stylesheet, not one per chunk: the page carries it inline, so no chunk loaded later
        // names a stylesheet to wait for.
        build: { cssCodeSplit: false },
      };
    },
    configResolved(resolved) {
      const env = loadEnv(resolved.mode, resolved.envDir || process.cwd(), 'VITE_');
      // Variables set in the process win over .env files, as in Vite itself.
      config = parseSiteConfig({ ...env, ...pickVite(process.env) });
    },
    transformIndexHtml: {
      // After Vite has added the bundle's tags, so the stylesheet and the entry are known.
      order: 'post',
      handler(html, context) {
        // The dev server injects inline scripts (hot reload) that the policy rightly forbids, and
        // serves styles its own way: the policy and the inlining are for built pages, and the
        // browser tests run on those.
        if (context.server || !context.bundle) {
          html = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
        } else {
          html = renderWithFirstScreen(startAppAfterPaint(inlineStylesheets(html, context.bundle)));
        }
        return html
          .replaceAll('%PEPA_CSP%', escapeAttribute(contentSecurityPolicy(config)))
          .replaceAll('%PEPA_SITE_URL%', escapeAttribute(config.siteUrl));
      },
    },
    generateBundle() {
      if (this.environment?.config.consumer === 'server') return;
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(config) });
      for (const name of FIXED_NAME_FONTS) {
        this.emitFile({
          type: 'asset',
          fileName: `fonts/${name}`,
          source: readFileSync(new URL(`../src/assets/fonts/${name}`, import.meta.url)),
        });
      }
    },
  };
}

function assetAt(bundle: OutputBundle, url: string): OutputAsset {
  const file = bundle[url.replace(/^\//, '')];
  if (file?.type !== 'asset') throw new Error(`The page links ${url}, which the build lacks`);
  return file;
}

/**
 * Puts the page's stylesheet into a `<style>` element, followed by the script that installs the
 * display face from its bytes, carried in the page (scripts/lib/install-fonts.mjs; which faces, in
 * scripts/lib/font-subsets.mjs). The page then paints from its HTML alone: no request for CSS or
 * fonts stands between a visitor and the first screen, and the hero is set in Cinzel on a first
 * visit. The text face is the stylesheet's own file, shown with `swap` over its metric-matched
 * fallback. The font files stay in the build for the stylesheet's own @font-face rules, which
 * also serve visitors without script.
 */
export function inlineStylesheets(html: string, bundle: OutputBundle): string {
  const inlined = html.replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (_tag, href) => {
    const stylesheet = assetAt(bundle, href);
    const css = String(stylesheet.source);
    delete bundle[stylesheet.fileName];
    // A style element ends at the first "</style"; a stylesheet never needs one.
    if (/<\/style/i.test(css)) throw new Error(`${href} contains "</style"`);
    const inPage = fontFaceRules(css).filter(({ family }) => IN_PAGE_FAMILIES.includes(family));
    const faces = inPage.map(({ family, url, descriptors }) => {
      const { source } = assetAt(bundle, url);
      return {
        family,
        descriptors,
        bytes: typeof source === 'string' ? Buffer.from(source) : source,
      };
    });
    const fonts = faces.length > 0 ? installFontsTag(faces) : '';
    // After the stylesheet, whose file faces the script replaces (scripts/lib/install-fonts.mjs).
    return `<style>${css}</style>${fonts}`;
  });
  const leftover = Object.keys(bundle).filter((name) => name.endsWith('.css'));
  if (leftover.length > 0) {
    throw new Error(
      `Stylesheets the page does not link would be fetched later: ${leftover.join(', ')}`,
    );
  }
  return inlined;
}

/**
 * Where the first screen ends in the home page's markup: the hero fills the viewport
 * (`min-h-svh`) and the Talk section follows it.
 */
export const FIRST_SCREEN_END = 'talk';

/**
 * Holds the first render until the parser has reached the end of the first screen
 * (`<link rel="expect" blocking="render">`), so the first frame shows the whole hero, laid out
 * once, instead of a blank frame and a partial hero laid out again as more of the page arrives. A
 * page without that element (the 404 page) renders once it is parsed, as the standard says.
 */
export function renderWithFirstScreen(html: string): string {
  const expect = `<link rel="expect" href="#${FIRST_SCREEN_END}" blocking="render">`;
  return html.replace(/<script data-faces=|<style>/, (first) => `${expect}${first}`);
}

/**
 * Replaces the entry's module script, and the manifest link, with the inline script that adds
 * both once the page has painted (scripts/lib/start-after-paint.mjs).
 */
export function startAppAfterPaint(html: string): string {
  const entryTag = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/.exec(html);
  if (!entryTag?.[1]) throw new Error('The built page has no module script to start');
  const manifestTag = /<link rel="manifest" href="([^"]+)"[^>]*>\s*/.exec(html);
  const start =
    earlyTapsTag() + startAfterPaintTag({ entry: entryTag[1], manifest: manifestTag?.[1] });
  let result = html.replace(entryTag[0], '');
  if (manifestTag) result = result.replace(manifestTag[0], '');
  // Last in the head: it only registers an observer, and reads nothing below it.
  return result.replace(/(\s*)<\/head>/, `$1  ${start}$1</head>`);
}

function pickVite(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('VITE_') && value !== undefined) picked[key] = value;
  }
  return picked;
}
