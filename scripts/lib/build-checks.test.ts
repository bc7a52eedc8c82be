import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  OFFICIAL_CLIENT_MARKERS,
  cspProblems,
  officialClientFiles,
  unsafeBlankLinks,
} from './build-checks.mjs';
import { chunkLabel, initialAssets } from './bundle-stats.mjs';
import { parseHeadersFile } from './static-server.mjs';

const repoRoot = resolve(import.meta.dirname, '..', '..');

const strictMeta = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'" />`;

describe('unsafeBlankLinks', () => {
  it('accepts new-tab links that carry both noopener and noreferrer', () => {
    expect(
      unsafeBlankLinks('<a href="https://x.com" target="_blank" rel="noopener noreferrer">x</a>'),
    ).toEqual([]);
  });

  it('reports a new-tab link missing noreferrer, and ignores same-tab links', () => {
    const html =
      '<a href="#pond">Pond</a><a href="https://t.me" target="_blank" rel="noopener">t</a>';
    expect(unsafeBlankLinks(html)).toEqual([
      '<a href="https://t.me" target="_blank" rel="noopener">',
    ]);
  });
});

describe('cspProblems', () => {
  it('accepts a strict policy with external module scripts only', () => {
    expect(cspProblems(`${strictMeta}<script type="module" src="/assets/a.js"></script>`)).toEqual(
      [],
    );
  });

  it("reports a missing policy, 'unsafe-eval', inline scripts and inline handlers", () => {
    expect(cspProblems('<html></html>')).toEqual(['no Content-Security-Policy <meta>']);
    const weak = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'unsafe-eval' 'unsafe-inline'" /><script>alert(1)</script><button onclick="x()">`;
    expect(cspProblems(weak)).toEqual([
      "the policy allows 'unsafe-eval'",
      "script-src allows 'unsafe-inline'",
      "object-src is not 'none'",
      "base-uri is not 'self'",
      'inline script: <script>',
      'inline event handler attribute',
    ]);
  });

  it('accepts an inline script only when the policy names its hash', () => {
    const text = 'console.log(1)';
    const hash = createHash('sha256').update(text).digest('base64');
    const meta = strictMeta.replace("script-src 'self'", `script-src 'self' 'sha256-${hash}'`);
    expect(cspProblems(`${meta}<script data-entry="/a.js">${text}</script>`)).toEqual([]);
    expect(cspProblems(`${meta}<script>${text};</script>`)).toEqual(['inline script: <script>']);
  });

  it('reads a policy whose quotes are HTML-escaped', () => {
    const escaped = strictMeta.replaceAll("'", '&#39;');
    expect(cspProblems(escaped)).toEqual([]);
  });
});

describe('initialAssets', () => {
  it('lists the module scripts, preloads and stylesheets a page loads up front', () => {
    const html = `<script type="module" crossorigin src="/assets/index-AbCd1234.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react-EfGh5678.js">
      <link rel="stylesheet" crossorigin href="/assets/index-IjKl9012.css">
      <link rel="icon" href="/favicon.svg">`;
    expect(initialAssets(html)).toEqual({
      js: ['/assets/index-AbCd1234.js', '/assets/react-EfGh5678.js'],
      css: ['/assets/index-IjKl9012.css'],
      inlineCss: [],
      inlineFonts: [],
    });
  });

  it('counts the entry the start-after-paint script adds, the inline stylesheet and fonts', () => {
    const html = `<script data-faces="[{&quot;family&quot;:&quot;Cinzel&quot;}]">install()</script>
      <style>body{color:red}</style>
      <script data-entry="/assets/index-AbCd1234.js" data-manifest="/site.webmanifest">start()</script>`;
    expect(initialAssets(html)).toEqual({
      js: ['/assets/index-AbCd1234.js'],
      css: [],
      inlineCss: ['body{color:red}'],
      inlineFonts: ['[{&quot;family&quot;:&quot;Cinzel&quot;}]'],
    });
  });

  it('labels chunks without their content hash', () => {
    expect(chunkLabel('assets/voice-panel-B1c2D3e4.js')).toBe('voice-panel.js');
  });
});

describe('parseHeadersFile', () => {
  it('reads path rules and their indented headers', () => {
    expect(
      parseHeadersFile(
        '/*\n  X-Content-Type-Options: nosniff\n  A: b: c\n# note\n/assets/*\n  Cache-Control: max-age=1\n',
      ),
    ).toEqual([
      {
        pattern: '/*',
        headers: [
          ['X-Content-Type-Options', 'nosniff'],
          ['A', 'b: c'],
        ],
      },
      { pattern: '/assets/*', headers: [['Cache-Control', 'max-age=1']] },
    ]);
  });
});

describe('officialClientFiles', () => {
  const officialBuild = resolve(repoRoot, 'node_modules', '@vapi-ai', 'web', 'dist');
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pepa-official-client-'));
    await mkdir(join(dir, 'assets'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('every marker is in the installed official client, so an upgrade that drops one shows here', async () => {
    const shipped = (
      await Promise.all(
        [join(officialBuild, 'vapi.js'), resolve(officialBuild, '..', 'package.json')].map((file) =>
          readFile(file, 'utf8'),
        ),
      )
    ).join('\n');
    for (const marker of OFFICIAL_CLIENT_MARKERS) expect(shipped, marker).toContain(marker);
  });

  it('finds the official client bundled into a built asset', async () => {
    const client = await readFile(join(officialBuild, 'vapi.js'), 'utf8');
    await writeFile(join(dir, 'index.html'), '<script type="module" src="/assets/a.js"></script>');
    await writeFile(join(dir, 'assets', 'voice-abc123.js'), `const x=1;${client}`);
    expect(await officialClientFiles(dir)).toEqual([
      { file: join('assets', 'voice-abc123.js'), marker: 'runNetworkTestsStandalone' },
    ]);
  });

  it("finds none in the page's own call library, its generated client or a build of them", async () => {
    const sources = [
      ...(await readdir(resolve(repoRoot, 'src', 'lib', 'call')))
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .map((name) => resolve(repoRoot, 'src', 'lib', 'call', name)),
      resolve(repoRoot, 'generated', 'sdk.gen.ts'),
    ];
    const text = (await Promise.all(sources.map((file) => readFile(file, 'utf8')))).join('\n');
    await writeFile(join(dir, 'assets', 'voice.js'), text);
    expect(await officialClientFiles(dir)).toEqual([]);
  });
});
