/**
 * A card drawn on the Worker: Satori lays it out as SVG, resvg paints the PNG, both as
 * WebAssembly modules imported with the Worker (workerd compiles no WebAssembly from bytes at
 * run time) and instantiated on the first card, never at start-up. Drawn once, when the card is
 * made; the stored PNG is what every share serves. The Worker imports this module only when a
 * card is made, so its code is not even evaluated at start-up.
 */
import { initResvg, Resvg } from '@cf-wasm/resvg/others';
import resvgModule from '@cf-wasm/resvg/resvg.wasm';
import { initSatori, satori, type VNode } from '@cf-wasm/satori/others';
import yogaModule from '@cf-wasm/satori/yoga.wasm';
import cinzelBold from '@fontsource/cinzel/files/cinzel-latin-700-normal.woff';
import interCyrillicMedium from '@fontsource/inter/files/inter-cyrillic-500-normal.woff';
import interLatinExtMedium from '@fontsource/inter/files/inter-latin-ext-500-normal.woff';
import interMedium from '@fontsource/inter/files/inter-latin-500-normal.woff';
import interRegular from '@fontsource/inter/files/inter-latin-400-normal.woff';
import avatar from '../../../public/icon-192.png';
import { cardDate } from './words/card-words';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** The court's colours (src/styles.css). */
const COURT = { deep: '#06130c', night: '#0b1f14', moss: '#17402a', leaf: '#8fd3a4' };
const GOLD = { light: '#f5e1a0', mid: '#e2b84a', dark: '#9a7220' };
const IVORY = '#f6f0dd';
const MIST = '#c3cdbf';

export interface CardFace {
  words: string;
  /** When she said them. */
  saidAt: Date;
  /** The site's address as the card prints it, e.g. `pepa.example`. */
  site: string;
}

let ready: Promise<void> | null = null;

/** The two modules instantiated once per isolate, on the first card. */
function instantiated(): Promise<void> {
  ready ??= Promise.all([initSatori(yogaModule), initResvg(resvgModule)]).then(() => undefined);
  return ready;
}

function node(type: string, style: Record<string, unknown>, children?: VNode['props']['children']) {
  return { type, props: { style, ...(children === undefined ? {} : { children }) } } as VNode;
}

/** The quote's size: larger for a short remark, so every card is filled. */
function quoteSize(words: string): number {
  if (words.length <= 70) return 56;
  if (words.length <= 130) return 46;
  return 38;
}

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  const view = new Uint8Array(bytes);
  for (let i = 0; i < view.length; i += 0x8000) {
    binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

const AVATAR_SRC = `data:image/png;base64,${base64(avatar)}`;

function layout(face: CardFace): VNode {
  const avatarImage = {
    type: 'img',
    props: { src: AVATAR_SRC, width: 132, height: 132, style: { borderRadius: 66 } },
  } as VNode;
  const header = node('div', { display: 'flex', alignItems: 'center', gap: 28 }, [
    node(
      'div',
      { display: 'flex', borderRadius: 72, border: `4px solid ${GOLD.mid}`, padding: 2 },
      [avatarImage],
    ),
    node('div', { display: 'flex', flexDirection: 'column', gap: 6 }, [
      node(
        'div',
        { fontFamily: 'Cinzel', fontSize: 26, letterSpacing: 6, color: GOLD.light },
        'PEPA SAID',
      ),
      node('div', { fontFamily: 'Inter', fontSize: 24, color: MIST }, cardDate(face.saidAt)),
    ]),
  ]);
  const quote = node(
    'div',
    {
      display: 'flex',
      flexGrow: 1,
      alignItems: 'center',
      fontFamily: 'Inter',
      fontWeight: 500,
      fontSize: quoteSize(face.words),
      lineHeight: 1.3,
      color: IVORY,
      // Her line breaks stay breaks on the card.
      whiteSpace: 'pre-line',
    },
    `“${face.words}”`,
  );
  const footer = node(
    'div',
    { display: 'flex', justifyContent: 'space-between', alignItems: 'flex-end' },
    [
      node('div', { fontFamily: 'Cinzel', fontSize: 64, color: GOLD.mid }, '$PEPA'),
      node('div', { fontFamily: 'Inter', fontSize: 28, color: COURT.leaf }, face.site),
    ],
  );
  return node(
    'div',
    {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      display: 'flex',
      padding: 24,
      backgroundColor: COURT.deep,
      backgroundImage: `linear-gradient(135deg, ${COURT.moss} 0%, ${COURT.night} 45%, ${COURT.deep} 100%)`,
    },
    [
      node(
        'div',
        {
          display: 'flex',
          flexDirection: 'column',
          flexGrow: 1,
          gap: 18,
          padding: '40px 56px',
          border: `2px solid ${GOLD.dark}`,
          borderRadius: 28,
        },
        [header, quote, footer],
      ),
    ],
  );
}

/** The card as a 1200×630 PNG. Throws when it cannot be drawn (the caller serves the default). */
export async function renderCard(face: CardFace): Promise<Uint8Array> {
  await instantiated();
  const svg = await satori(layout(face), {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: [
      { name: 'Cinzel', data: cinzelBold, weight: 700, style: 'normal' },
      { name: 'Inter', data: interRegular, weight: 400, style: 'normal' },
      { name: 'Inter', data: interMedium, weight: 500, style: 'normal' },
      // The quote's other subsets, each under its own name: Satori falls back to another font
      // for a glyph the first lacks, but keeps only the first of fonts sharing a name and
      // weight. What the card can draw is these subsets' ranges (card-script.ts).
      { name: 'Inter Latin Extended', data: interLatinExtMedium, weight: 500, style: 'normal' },
      { name: 'Inter Cyrillic', data: interCyrillicMedium, weight: 500, style: 'normal' },
    ],
  });
  const image = new Resvg(svg, { fitTo: { mode: 'width', value: CARD_WIDTH } }).render();
  try {
    return image.asPng();
  } finally {
    image.free();
  }
}

/** What draws the cards: one object, so a failing painter can be put in its place in the tests. */
export const painter = { render: renderCard };
