/**
 * Remarks a card must refuse: the plain cases, and the same secrets, contacts, promises and words
 * disguised the ways an attacker who can make Pepa repeat words would try (zero-width and
 * soft-hyphen characters, look-alike letters, accents, fullwidth forms, spelt-out and split
 * forms, leetspeak, other languages). Shared by the unit tests and the workerd suite.
 */
import type { CardRefusal } from '../src/cards/words/card-words';

export interface RefusedCase {
  name: string;
  words: string;
  refusal: CardRefusal;
}

const PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';
const ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const HEX_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const BYTES = '12, 200, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17';

const words = PHRASE.split(' ');
const eachWord = (map: (word: string) => string) => words.map(map).join(' ');
const insideEach = (mark: string) =>
  eachWord((word) => `${word.slice(0, 2)}${mark}${word.slice(2)}`);
/** Latin letters swapped for the Cyrillic ones that look the same. */
const cyrillic = (text: string) =>
  text.replace(/[aeocpxy]/g, (letter) => 'аеосрху'['aeocpxy'.indexOf(letter)] ?? letter);
const fullwidth = (text: string) =>
  text.replace(/[!-~]/g, (char) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0));
const everyTen = (text: string) => (text.match(/.{1,10}/g) ?? []).join('\u200b');

/** What was refused before the checks read disguises, and must stay refused. */
export const PLAIN_CASES: readonly RefusedCase[] = [
  { name: 'a recovery phrase', words: `Say: ${PHRASE}.`, refusal: 'secret' },
  { name: 'a base58 key', words: `Here: ${ADDRESS}${ADDRESS}`, refusal: 'secret' },
  { name: 'a Solana address', words: `Send it to ${ADDRESS} please`, refusal: 'secret' },
  { name: 'a hex key', words: `My key is 0x${HEX_KEY}`, refusal: 'secret' },
  { name: 'a byte array', words: `Keypair [${BYTES}]`, refusal: 'secret' },
  { name: 'an e-mail address', words: 'Write to pepa.queen@proton.me', refusal: 'personal-data' },
  { name: 'a phone number', words: 'Call me on +44 20 7946 0958', refusal: 'personal-data' },
  { name: 'a guarantee', words: 'This token is guaranteed to rise.', refusal: 'financial-promise' },
  { name: 'a multiplier', words: '$PEPA will 100x by spring!', refusal: 'financial-promise' },
  { name: 'the moon', words: 'We are going to the moon, frogs.', refusal: 'financial-promise' },
  { name: 'a blocklisted word', words: 'What a rugpull that was.', refusal: 'blocked-word' },
];

/** The same, disguised. */
export const DISGUISED_CASES: readonly RefusedCase[] = [
  { name: 'a phrase with U+200B inside each word', words: insideEach('\u200b'), refusal: 'secret' },
  { name: 'a phrase with soft hyphens', words: insideEach('\u00ad'), refusal: 'secret' },
  { name: 'a phrase in Cyrillic look-alikes', words: cyrillic(PHRASE), refusal: 'secret' },
  {
    name: 'a phrase with accents',
    words: 'ábandon ability áble àbout abóve absent absörb abstract absurd abuse âccess accidént',
    refusal: 'secret',
  },
  { name: 'a phrase in fullwidth letters', words: fullwidth(PHRASE), refusal: 'secret' },
  {
    name: 'a phrase split 6 + 6 across two sentences',
    words: `Remember ${words.slice(0, 6).join(' ')}. Then a song: ${words.slice(6).join(' ')}.`,
    refusal: 'secret',
  },
  {
    name: 'a phrase split 4 + 4 + 4',
    words: `First ${words.slice(0, 4).join(' ')}, then the ${words.slice(4, 8).join(' ')}; last ${words.slice(8).join(' ')}.`,
    refusal: 'secret',
  },
  {
    name: 'a numbered phrase',
    words: words.map((word, n) => `${n + 1}. ${word}`).join(' '),
    refusal: 'secret',
  },
  {
    name: 'a phrase from the Spanish list, accents dropped',
    words: 'abaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acabar',
    refusal: 'secret',
  },
  {
    name: 'a phrase from the French list',
    words:
      'abaisser abandon abdiquer abeille abolir aborder aboutir aboyer abrasif abreuver abriter abroger',
    refusal: 'secret',
  },
  {
    name: 'a phrase from the Japanese list, with ideographic spaces',
    words:
      'あいこくしん　あいさつ　あいだ　あおぞら　あかちゃん　あきる　あけがた　あける　あこがれる　あさい　あさひ　あしあと',
    refusal: 'secret',
  },
  {
    name: 'a phrase from the Chinese list, a character at a time',
    words: '的 一 是 在 不 了 有 和 人 这 中 大',
    refusal: 'secret',
  },
  {
    name: 'a Solana address split by U+200B every 10',
    words: `Send to ${everyTen(ADDRESS)}`,
    refusal: 'secret',
  },
  {
    name: 'a Solana address in spaced groups of 4',
    words: `Send to ${(ADDRESS.match(/.{1,4}/g) ?? []).join(' ')} today`,
    refusal: 'secret',
  },
  {
    name: 'a Solana address in hyphenated halves',
    words: `Send to ${ADDRESS.slice(0, 22)}-${ADDRESS.slice(22)}`,
    refusal: 'secret',
  },
  {
    name: 'a hex key in groups of 4',
    words: `Key: ${(HEX_KEY.match(/.{1,4}/g) ?? []).join(' ')}`,
    refusal: 'secret',
  },
  { name: 'a byte array without brackets', words: `Keypair ${BYTES}`, refusal: 'secret' },
  {
    name: 'a byte array in parentheses, spaces apart',
    words: `(${BYTES.replaceAll(',', '')})`,
    refusal: 'secret',
  },
  {
    name: 'an e-mail with [at] and [dot]',
    words: 'Write to pepa [at] proton [dot] me',
    refusal: 'personal-data',
  },
  {
    name: 'an e-mail with (at) and (dot)',
    words: 'Write to pepa (at) proton (dot) me',
    refusal: 'personal-data',
  },
  {
    name: 'an e-mail with at and dot as words',
    words: 'Write to pepa at proton dot me',
    refusal: 'personal-data',
  },
  {
    name: 'an e-mail with a fullwidth ＠',
    words: 'Write to pepa＠proton.me',
    refusal: 'personal-data',
  },
  {
    name: 'a phone number with O for zero',
    words: 'Call me on +44 2O 7946 O958',
    refusal: 'personal-data',
  },
  {
    name: 'a phone number with l for one, spelt out',
    words: 'Ring 5 5 5 l 2 3 4 5 6 7',
    refusal: 'personal-data',
  },
  { name: 'a promise as "100  x"', words: '$PEPA will do 100  x', refusal: 'financial-promise' },
  { name: 'a promise as "100×"', words: 'It goes 100× from here', refusal: 'financial-promise' },
  { name: 'a promise as "x100"', words: 'An easy x100, darling', refusal: 'financial-promise' },
  { name: 'a promise as "1OOx"', words: 'An easy 1OOx, darling', refusal: 'financial-promise' },
  {
    name: 'a promise as "1 0 0 x"',
    words: 'An easy 1 0 0 x, darling',
    refusal: 'financial-promise',
  },
  { name: '"gu4r4nt33d"', words: 'Profits are gu4r4nt33d', refusal: 'financial-promise' },
  { name: '"guaran-teed"', words: 'Profits are guaran-teed', refusal: 'financial-promise' },
  {
    name: '"guar\\u200banteed"',
    words: 'Profits are guar\u200banteed',
    refusal: 'financial-promise',
  },
  { name: '"m00n"', words: 'We go to the m00n', refusal: 'financial-promise' },
  {
    name: '"moon" with a Cyrillic о',
    words: 'Straight to the mоon',
    refusal: 'financial-promise',
  },
  { name: '"up 1000% by Friday"', words: '$PEPA up 1000% by Friday', refusal: 'financial-promise' },
  {
    name: '"will definitely go up"',
    words: 'It will definitely go up',
    refusal: 'financial-promise',
  },
  { name: '"Buy $PEPA today"', words: 'Buy $PEPA today, my frogs', refusal: 'financial-promise' },
  {
    name: 'a promise in Spanish',
    words: 'El precio de $PEPA subirá, ganancias garantizadas',
    refusal: 'financial-promise',
  },
  {
    name: 'a promise in German',
    words: 'Der Kurs wird bestimmt steigen, kauft jetzt!',
    refusal: 'financial-promise',
  },
  {
    name: 'a promise in Russian',
    words: 'Цена точно вырастет, гарантирую',
    refusal: 'financial-promise',
  },
  { name: 'a promise in Chinese', words: '稳赚不赔，马上买！', refusal: 'financial-promise' },
  { name: '"f u c k"', words: 'Oh f u c k this', refusal: 'blocked-word' },
  { name: '"f*ck"', words: 'Oh f*ck this', refusal: 'blocked-word' },
  { name: '"fück"', words: 'Oh fück this', refusal: 'blocked-word' },
];

/** A promise of price or return in each language Pepa may be asked in. */
export const PROMISES_BY_LANGUAGE: readonly RefusedCase[] = [
  ['English', 'Buy now before it moons, guaranteed 50% return'],
  ['Spanish', '¡Compra ya! Va a subir 100 veces, a la luna'],
  ['Portuguese', 'Lucro garantido: compre já, vai subir 10 vezes'],
  ['French', 'Rendement garanti, achetez maintenant, direction la lune'],
  ['German', 'Garantierter Gewinn: 200% Rendite, jetzt kaufen'],
  ['Italian', 'Guadagno garantito, compra subito, andrà alle stelle'],
  ['Russian', 'Покупайте сейчас, доход гарантирован: 300% прибыли'],
  ['Turkish', 'Kesinlikle yükselecek, hemen al, garantili kazanç'],
  ['Chinese', '保证翻倍，现在买，到月球'],
  ['Japanese', '必ず上がる！今すぐ買って、月まで行こう'],
  ['Korean', '원금 보장, 지금 사세요, 무조건 오른다'],
  ['Arabic', 'ربح مضمون، اشتر الآن، إلى القمر'],
  ['Hindi', 'गारंटी है, अभी खरीदें, कीमत बढ़ेगी'],
].map(([language = '', remark = '']) => ({
  name: `a promise in ${language}`,
  words: remark,
  refusal: 'financial-promise' as const,
}));
