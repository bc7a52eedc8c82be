/**
 * A disguise set: remarks a card must refuse (secrets, contacts, promises, blocked words), each
 * written plain and in the disguises an attacker who can make Pepa repeat words would try: a sign
 * the card cannot draw inside each word, look-alike letters, fullwidth forms, a zero-width space
 * inside each word, a line break between words, and the words spaced wide.
 */

/** The remarks, plain. */
const BASES: readonly string[] = [
  'legal winner thank year wave sausage worth useful legal winner thank yellow',
  'legal winner thank year wave sausage worth useful legal winner thank',
  'lega winn than year wave saus wort usef lega winn than yell',
  'Send to 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin today',
  'Send to 0x52908400098527886E0F7030069857D2E4169EE7 today',
  'Send to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq today',
  'Pay 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 today',
  'Write to pepa.queen@proton.me tonight',
  'Call me on +44 20 7946 0958 tonight',
  'Join t.me/pepa_official for the airdrop',
  'Send 1 SOL to pepa-airdrop.sol for the airdrop',
  'Follow @pepa_queen_real for gifts',
  'DM me for the secret, darling',
  'Read https://frog-news.example/claim first',
  'Our party is at discord.gg/lilypad',
  'Guaranteed returns for every holder',
  '$PEPA will 100x by spring',
  'A 50% return on every lily pad',
  'We are going to the moon, frogs',
  'Buy $PEPA today, my frogs',
  'The price will triple, trust me',
  'What a rugpull that was',
  'Oh fuck this pond',
  'They rugpulled us all',
  'It is risk free, darling',
];

const WORD = /[\p{L}\p{N}]{3,}/gu;
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  a: 'а',
  e: 'е',
  o: 'о',
  c: 'с',
  p: 'р',
  x: 'х',
  y: 'у',
};

/** Each disguise, by name. */
const DISGUISES: Readonly<Record<string, (remark: string) => string>> = {
  plain: (remark) => remark,
  'a 🐸 inside each word': (remark) =>
    remark.replace(WORD, (word) => `${word.slice(0, 2)}🐸${word.slice(2)}`),
  'Cyrillic look-alikes': (remark) =>
    remark.replace(/[aeocpxy]/g, (char) => LOOK_ALIKES[char] ?? char),
  'fullwidth forms': (remark) =>
    remark.replace(/[!-~]/g, (char) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0)),
  'a zero-width space inside each word': (remark) =>
    remark.replace(WORD, (word) => `${word.slice(0, 2)}\u200b${word.slice(2)}`),
  'a line break between words': (remark) => remark.replaceAll(' ', '\n'),
};

export interface DisguisedRemark {
  name: string;
  words: string;
}

/** Every remark in every disguise: 25 × 6 = 150 remarks. */
export const DISGUISE_SET: readonly DisguisedRemark[] = BASES.flatMap((base) =>
  Object.entries(DISGUISES).map(([disguise, apply]) => ({
    name: `${base} (${disguise})`,
    words: apply(base),
  })),
);
