import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cspProblems, unsafeBlankLinks } from './build-checks.mjs';
import { chunkLabel, initialAssets } from './bundle-stats.mjs';
import { parseHeadersFile } from './static-server.mjs';

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
