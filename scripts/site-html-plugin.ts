import type { Plugin } from 'vite';
import type { OutputBundle } from 'rolldown';
import { loadEnv } from 'vite';
import { parseSiteConfig, type SiteConfig } from '../src/config/site-config.ts';

/**
 * daily-js's base domains: daily.co and the fallbacks it switches to when daily.co is unreachable.
 * It loads its call machine from `c.<domain>` (a script, with `avoidEval`) and joins the room on
 * `<team>.<domain>` over HTTPS and WebSocket. `npm run budget` and a unit test read the installed
 * package and fail when it uses a host this policy lacks (scripts/lib/daily-hosts.mjs).
 */
export const DAILY_BASE_DOMAINS = ['daily.co', 'dailywebrtc.com', 'dailywebrtc.net'] as const;
/** Where daily-js sends its own error reports after a fatal call error. */
export const DAILY_ERROR_REPORTING = 'https://o77906.ingest.sentry.io';

const DAILY_HOSTS = DAILY_BASE_DOMAINS.map((domain) => `https://*.${domain}`);
const DAILY_SOCKETS = DAILY_BASE_DOMAINS.map((domain) => `wss://*.${domain}`);

/**
 * The page's Content-Security-Policy. No inline script and no 'unsafe-eval'; the demo's local
 * mock origin is allowed only in demo builds.
 */
export function contentSecurityPolicy(config: SiteConfig): string {
  const live = config.voice.mode === 'live';
  const api = new URL(config.voice.apiUrl).origin;
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', live ? ["'self'", ...DAILY_HOSTS] : ["'self'"]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'"]],
    ['media-src', ["'self'", 'blob:']],
    [
      'connect-src',
      live
        ? ["'self'", api, ...DAILY_HOSTS, ...DAILY_SOCKETS, DAILY_ERROR_REPORTING]
        : ["'self'", api],
    ],
    ['worker-src', live ? ["'self'", 'blob:', ...DAILY_HOSTS] : ["'self'", 'blob:']],
    ['frame-src', ["'none'"]],
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

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Validates the site configuration when Vite starts (a bad deployment fails with a readable
 * list of problems), fills the page head from it, and emits the `_headers` file.
 */
export function siteHtmlPlugin(): Plugin {
  let config: SiteConfig;
  return {
    name: 'pepa-site-html',
    configResolved(resolved) {
      const env = loadEnv(resolved.mode, resolved.envDir || process.cwd(), 'VITE_');
      // Variables set in the process win over .env files, as in Vite itself.
      config = parseSiteConfig({ ...env, ...pickVite(process.env) });
    },
    transformIndexHtml: {
      // After Vite has added the bundle's tags, so the font's hashed name is known.
      order: 'post',
      handler(html, context) {
        // The dev server injects inline scripts (hot reload) that the policy rightly forbids: the
        // policy is for built pages, and the browser tests run on those.
        if (context.server) {
          html = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
        }
        return preloadDisplayFont(html, context.bundle)
          .replaceAll('%PEPA_CSP%', escapeAttribute(contentSecurityPolicy(config)))
          .replaceAll('%PEPA_SITE_URL%', escapeAttribute(config.siteUrl));
      },
    },
    generateBundle() {
      if (this.environment?.config.consumer === 'server') return;
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(config) });
    },
  };
}

/** The committed display-font subset's file name (see scripts/subset-fonts.mjs). */
const DISPLAY_FONT_NAME = 'cinzel-700-display.woff2';

/**
 * Adds a preload of the display font to a built page: the hero's heading (the page's largest
 * paint) is set in it, and a preloaded font is requested with the HTML instead of after the CSS.
 */
export function preloadDisplayFont(html: string, bundle: OutputBundle | undefined): string {
  if (!bundle) return html;
  const font = Object.values(bundle).find(
    (file) => file.type === 'asset' && file.names.includes(DISPLAY_FONT_NAME),
  );
  if (!font) throw new Error(`The build has no ${DISPLAY_FONT_NAME} to preload`);
  const link = `<link rel="preload" href="/${font.fileName}" as="font" type="font/woff2" crossorigin />`;
  // Before the stylesheet, so the font request starts no later than the CSS.
  return html.replace(/(\s*)(<link rel="stylesheet")/, `$1${link}$1$2`);
}

function pickVite(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('VITE_') && value !== undefined) picked[key] = value;
  }
  return picked;
}
