import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  fontFaceRules,
  INSTALL_FONTS,
  INSTALL_FONTS_HASH,
  installFontsTag,
} from './install-fonts.mjs';

type Installed = { family: string; bytes: number[]; descriptors: unknown };

/** Runs the built tag's script in a fresh realm, as a browser would, and returns what it added. */
/** A page stylesheet as the CSSOM shows it: its rules, and the ones the script deleted. */
class FakeSheet {
  readonly deleted: string[] = [];
  constructor(readonly cssRules: { type: number; cssText: string; style: unknown }[]) {}
  deleteRule(index: number) {
    const [rule] = this.cssRules.splice(index, 1);
    if (rule) this.deleted.push(rule.cssText);
  }
}

/** A rule of the stylesheet; type 5 is a CSSFontFaceRule. */
function cssRule(cssText: string, family = '', type = 5) {
  return {
    type,
    cssText,
    style: { getPropertyValue: (name: string) => (name === 'font-family' ? family : '') },
  };
}

function runTag(
  tag: string,
  options: { fromBase64?: boolean; rejectFamily?: string; sheets?: FakeSheet[] } = {},
) {
  const attribute = /data-faces="([^"]*)"/.exec(tag)?.[1] ?? '';
  const faces = attribute
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  const installed: Installed[] = [];
  const script = /<script[^>]*>([\s\S]*)<\/script>/.exec(tag)?.[1] ?? '';
  const sandbox = {
    window: {} as Record<string, unknown>,
    atob: (text: string) => Buffer.from(text, 'base64').toString('latin1'),
    document: {
      currentScript: { getAttribute: (name: string) => (name === 'data-faces' ? faces : null) },
      fonts: { add: (face: Installed) => installed.push(face) },
      styleSheets: options.sheets,
    },
    FontFace: class {
      family: string;
      bytes: number[];
      descriptors: unknown;
      constructor(family: string, bytes: Uint8Array, descriptors: unknown) {
        if (family === options.rejectFamily) throw new Error('not a font');
        this.family = family;
        this.bytes = [...bytes];
        this.descriptors = descriptors;
      }
    },
  };
  sandbox.window = { FontFace: sandbox.FontFace, atob: sandbox.atob };
  // Uint8Array.fromBase64 where the browser has it (recorded, to see it used); else atob.
  const prelude = options.fromBase64
    ? 'Uint8Array.fromBase64 = function (text) { calls.fromBase64 += 1;' +
      ' return Uint8Array.from(atob(text), function (c) { return c.charCodeAt(0); }); };'
    : 'delete Uint8Array.fromBase64;';
  const calls = { fromBase64: 0 };
  runInNewContext(prelude + script, { ...sandbox, calls });
  return { installed, calls };
}

const CINZEL = new Uint8Array([0x77, 0x4f, 0x46, 0x32, 0, 1, 2, 250, 251, 252, 253, 254, 255]);
const INTER = new Uint8Array([0x77, 0x4f, 0x46, 0x32, 9, 8, 7]);
const DESCRIPTORS = { weight: '700', style: 'normal', unicodeRange: 'U+20-7E' };

describe('the font-installing script', () => {
  it('installs each face from its own bytes, with the descriptors of its @font-face', () => {
    const tag = installFontsTag([
      { family: 'Cinzel', descriptors: DESCRIPTORS, bytes: CINZEL },
      { family: 'Inter Variable', descriptors: { weight: '400 700' }, bytes: INTER },
    ]);
    for (const fromBase64 of [false, true]) {
      const { installed, calls } = runTag(tag, { fromBase64 });
      expect(calls.fromBase64).toBe(fromBase64 ? 2 : 0);
      expect(installed).toEqual([
        { family: 'Cinzel', bytes: [...CINZEL], descriptors: DESCRIPTORS },
        { family: 'Inter Variable', bytes: [...INTER], descriptors: { weight: '400 700' } },
      ]);
    }
  });

  it('installs the other faces when one is refused, leaving the refused one to the stylesheet', () => {
    const tag = installFontsTag([
      { family: 'Cinzel', descriptors: DESCRIPTORS, bytes: CINZEL },
      { family: 'Inter Variable', descriptors: {}, bytes: INTER },
    ]);
    expect(runTag(tag, { rejectFamily: 'Cinzel' }).installed.map((face) => face.family)).toEqual([
      'Inter Variable',
    ]);
  });

  it("removes the stylesheet's file faces of the families it installed, so no engine fetches them", () => {
    const cinzel = '@font-face { font-family: Cinzel; src: url("/assets/cinzel-1.woff2"); }';
    const inter =
      '@font-face { font-family: "Inter Variable"; src: url("/assets/inter-2.woff2"); }';
    const fallback = '@font-face { font-family: "Inter Fallback"; src: local(Arial); }';
    const sheet = new FakeSheet([
      cssRule('body { color: red; }', '', 1),
      cssRule(cinzel, 'Cinzel'),
      cssRule(fallback, '"Inter Fallback"'),
      cssRule(inter, '"Inter Variable"'),
    ]);
    const tag = installFontsTag([
      { family: 'Cinzel', descriptors: DESCRIPTORS, bytes: CINZEL },
      { family: 'Inter Variable', descriptors: {}, bytes: INTER },
    ]);
    runTag(tag, { sheets: [sheet] });
    expect(sheet.deleted.sort()).toEqual([cinzel, inter].sort());
    expect(sheet.cssRules.map((rule) => rule.cssText)).toEqual(['body { color: red; }', fallback]);
  });

  it("keeps the stylesheet's face of a family it could not install", () => {
    const cinzel = '@font-face { font-family: Cinzel; src: url("/assets/cinzel-1.woff2"); }';
    const sheet = new FakeSheet([cssRule(cinzel, 'Cinzel')]);
    const tag = installFontsTag([{ family: 'Cinzel', descriptors: DESCRIPTORS, bytes: CINZEL }]);
    runTag(tag, { sheets: [sheet], rejectFamily: 'Cinzel' });
    expect(sheet.deleted).toEqual([]);
  });

  it('does nothing, and throws nothing, when its attribute is not JSON', () => {
    const tag = `<script data-faces="[{broken">${INSTALL_FONTS}</script>`;
    expect(runTag(tag).installed).toEqual([]);
  });

  it('escapes the attribute so that no family name can end it', () => {
    const family = 'A "quoted" <face> & more';
    const tag = installFontsTag([{ family, descriptors: {}, bytes: INTER }]);
    expect(tag.indexOf('">')).toBe(tag.indexOf(`">${INSTALL_FONTS}`));
    expect(runTag(tag).installed[0]?.family).toBe(family);
  });

  it('keeps the same text in every build, so the policy hash is stable', () => {
    const one = installFontsTag([{ family: 'Cinzel', descriptors: {}, bytes: CINZEL }]);
    const other = installFontsTag([{ family: 'Inter', descriptors: {}, bytes: INTER }]);
    const text = (tag: string) => /<script[^>]*>([\s\S]*)<\/script>/.exec(tag)?.[1];
    expect(text(one)).toBe(INSTALL_FONTS);
    expect(text(other)).toBe(INSTALL_FONTS);
    const digest = createHash('sha256').update(INSTALL_FONTS).digest('base64');
    expect(INSTALL_FONTS_HASH).toBe(`'sha256-${digest}'`);
  });
});

describe('fontFaceRules', () => {
  it('reads the faces of a minified stylesheet, leaving out local() ones', () => {
    const css =
      '@font-face{font-family:Cinzel;font-style:normal;font-display:swap;font-weight:700;' +
      'src:url(/assets/cinzel-1.woff2)format("woff2");unicode-range:U+20-7E,U+A0}' +
      '@font-face{font-family:Inter Fallback;src:local(Arial);size-adjust:107%}' +
      '@font-face{font-family:"Inter Variable";font-weight:400 700;' +
      "src:url('/assets/inter-2.woff2') format('woff2-variations')}";
    expect(fontFaceRules(css)).toEqual([
      {
        family: 'Cinzel',
        url: '/assets/cinzel-1.woff2',
        descriptors: {
          weight: '700',
          style: 'normal',
          display: 'swap',
          unicodeRange: 'U+20-7E,U+A0',
        },
      },
      {
        family: 'Inter Variable',
        url: '/assets/inter-2.woff2',
        descriptors: { weight: '400 700' },
      },
    ]);
  });

  it('refuses a face without a family, which no text could use', () => {
    expect(() => fontFaceRules('@font-face{src:url(/assets/x.woff2)}')).toThrow(/font-family/);
  });
});
