/**
 * The usual words of a price prediction or a promised return, in the languages Pepa may be asked
 * in: English, Spanish, Portuguese, French, German, Italian, Russian, Turkish, Chinese, Japanese,
 * Korean, Arabic and Hindi. Each pattern is matched on every reading of a remark (card-fold.ts), so
 * Latin-script patterns are written folded (lower case, no diacritics) and the others as written.
 * Patterns are spelling, not meaning, so each is kept to what is unambiguous: a guarantee beside
 * a word of money, a multiplier or a percentage beside a gain, the token rising. Ordinary words
 * ("guaranteed fun", "the moon shines", "100% in love", "10 x 20 metres", "not financial advice")
 * pass; a promise put in other words passes too, and the owner's takedown is the answer to it.
 */

/**
 * A verb of rising counts when the price, the token or a word of certainty stands before it in
 * the sentence, or an amount after it: "the tide will rise" is not a promise, "$PEPA will rise"
 * and "it will surely rise 50%" are.
 */
function rising(verbs: string, context: string, times: string): string {
  const amount = String.raw`(?:\d[\d,.]*\s?%|x\s?\d+|\d+\s?x|\d+ (?:${times}))`;
  return String.raw`(?:\b(?:${context})\b[^.!?]{0,40}\b(?:${verbs})\b|\b(?:${verbs})\b[^.!?]{0,20}${amount})`;
}

/**
 * A word of certainty (a guarantee) counts only beside a word of money or of the token, either
 * way round within a sentence: "guaranteed returns" and "profits are guaranteed" are promises,
 * "guaranteed fun at the lily pad party" is not.
 */
function near(certain: string, money: string): string {
  const a = String.raw`\b(?:${certain})\b`;
  const b = String.raw`(?:\$pepa|\b(?:${money})\b)`;
  return String.raw`${a}[^.!?]{0,30}${b}|${b}[^.!?]{0,30}${a}`;
}

/** The token's own words, in any language, and the coins a scam asks for (`sol` is English's). */
const TOKEN = String.raw`tokens?|coins?|eth|btc|usdt|usdc|bnb|memecoin`;

/** Per language, the pattern sources; `\b` is a word's edge in any script. */
const PROMISES: Readonly<Record<string, readonly string[]>> = {
  english: [
    near(
      'guarantee(?:d|s)?',
      `returns?|profits?|gains?|income|money|yield|apy|apr|price|value|interest|sol|${TOKEN}`,
    ),
    String.raw`\bguaranteed? to (?:rise|go up|grow|pump|double|triple|moon|\d)`,
    String.raw`\b(?:ten|hundred|thousand|million)[- ]?x\b`,
    String.raw`\b(?:go(?:ing|es)?|gonna|head(?:ed|ing)|off|straight|fly(?:ing)?|rocket(?:ing)?|send(?:ing)?|pump(?:ing)?) to the moon\b`,
    String.raw`\b(?:mooning|moonshot)\b`,
    String.raw`\b(?:it|will|gonna|about to|token|coin|\$pepa) moons?\b`,
    String.raw`\brisk[- ]?free\b`,
    String.raw`\b(?:can(?:no|')?t|won'?t|never|cannot) lose\b`,
    String.raw`\bget rich\b`,
    String.raw`\beasy money\b`,
    String.raw`\bpassive income\b`,
    String.raw`\b(?:returns?|profits?|gains?|yield) of (?:up to )?\d`,
    String.raw`\bprice (?:will|is going to|prediction|target)\b`,
    String.raw`(?:\$pepa|\b(?:price|value|tokens?|coins?|market cap|mcap|bags?|chart)\b)[^.!?]{0,40}\bwill (?:\p{L}+ ){0,2}(?:be worth|reach|hit|pump|double|triple|skyrocket|explode|soar|surge|moon|\d+x)\b`,
    String.raw`\bwill (?:\p{L}+ ){0,2}(?:be worth|reach|hit) (?:\$\s?\d|\d[\d,.]*\s?(?:dollars?|usd|cents?|sol|eth)\b)`,
    String.raw`\bwill (?:\p{L}+ ){0,2}(?:pump|double|triple|skyrocket|\d+x)\b`,
    String.raw`(?:\$pepa|\b(?:price|value|tokens?|coins?|it)\b) (?:is )?(?:going to|gonna|about to) (?:\p{L}+ )?(?:pump|double|triple|skyrocket|explode|moon|soar)\b`,
    rising(
      String.raw`will (?:\p{L}+ )?(?:go up|rise|grow)|(?:going to|gonna) (?:\p{L}+ )?(?:rise|go up)`,
      'price|value|token|coins?|\\$?pepa|it|definitely|surely|certainly|guaranteed|for sure',
      'times',
    ),
    String.raw`\b(?:buy|ape in|get in) (?:now|before|today|tonight|asap|while)\b`,
    String.raw`\bbuy (?:some |more )?\$pepa\b`,
    String.raw`\bup \d[\d,.]*\s?%`,
  ],
  spanish: [
    near(
      'garantizad[oa]s?|garantia',
      `ganancias?|rentabilidad|retornos?|beneficios?|precio|valor|dinero|lucro|${TOKEN}`,
    ),
    String.raw`\b(?:hasta la luna|(?:va|vamos|van|ir|rumbo|directo) a la luna)\b`,
    rising(
      'subira|subiran|va a subir|van a subir|se disparara|explotara|va a explotar|se duplicara|se multiplicara',
      'precio|valor|token|\\$?pepa|seguro|seguramente|definitivamente|sin duda',
      'veces',
    ),
    String.raw`\bcompr(?:a|en|ad|ar) (?:\$?pepa )?(?:ya|ahora|hoy)\b`,
    String.raw`\b(?:ganancias?|rentabilidad|retorno|beneficios?) (?:del? )?\d`,
    String.raw`\bsin riesgos?\b`,
    String.raw`\bdinero facil\b`,
  ],
  portuguese: [
    near(
      'garantid[oa]s?|garantia',
      `lucros?|retornos?|rendimentos?|ganhos?|preco|valor|dinheiro|${TOKEN}`,
    ),
    String.raw`\b(?:(?:vai|vamos|vao|rumo) (?:para|pra) a lua|ate a lua)\b`,
    rising(
      'vai subir|vao subir|vai explodir|vai disparar|vai valorizar|vai dobrar|subira',
      'preco|valor|token|\\$?pepa|certamente|com certeza|definitivamente|sem duvida',
      'vezes',
    ),
    String.raw`\bcompr(?:e|em|ar) (?:\$?pepa )?(?:ja|agora|hoje)\b`,
    String.raw`\b(?:lucro|retorno|rendimento)s? (?:de )?\d`,
    String.raw`\bsem risco\b`,
    String.raw`\bdinheiro facil\b`,
  ],
  french: [
    near(
      'garanti(?:e|s|es)?',
      `rendements?|profits?|gains?|benefices?|prix|cours|valeur|argent|jetons?|${TOKEN}`,
    ),
    String.raw`\b(?:direction|jusqu'?a) la lune\b|\b(?:on va|va|allons|vont|decolle) (?:sur|vers) la lune\b`,
    rising(
      'va monter|vont monter|va exploser|va grimper|va decoller|va doubler|montera|grimpera|explosera',
      'prix|cours|valeur|jeton|token|\\$?pepa|surement|certainement|forcement|sans aucun doute',
      'fois',
    ),
    String.raw`\bachete[zr]? (?:\$?pepa )?(?:maintenant|aujourd'?hui|vite|tout de suite)\b`,
    String.raw`\b(?:rendement|profit|gain|benefice)s? (?:de )?\d`,
    String.raw`\bsans risque\b`,
    String.raw`\bargent facile\b`,
  ],
  german: [
    near(
      'garantier(?:t|te|ter|ten|tes)|garantie',
      `gewinne?|gewinnen|rendite|profit|preis|kurs|wert|geld|ertrag|${TOKEN}`,
    ),
    String.raw`\bgewinngarantie\b`,
    String.raw`\b(?:bis zum|ab zum|auf zum) mond\b|\b(?:geht|gehen|fliegt|fliegen|steigt) (?:\p{L}+ )?zum mond\b`,
    rising(
      'steigen|steigt|explodieren|verdoppeln|durch die decke',
      'preis|kurs|wert|token|\\$?pepa|sicher|bestimmt|definitiv|garantiert|ganz sicher',
      'mal',
    ),
    String.raw`\b(?:jetzt|heute|sofort) kaufen\b`,
    String.raw`\bkauf(?:t|en)? (?:\$?pepa )?(?:jetzt|heute|sofort)\b`,
    String.raw`\b\d[\d,.]*\s?% (?:rendite|gewinn|profit)\b`,
    String.raw`\b(?:risikolos|ohne risiko|schnelles geld)\b`,
  ],
  italian: [
    near(
      'garantit[oaie]|garanzia',
      `guadagn[oi]|rendiment[oi]|profitt[oi]|prezzo|valore|soldi|${TOKEN}`,
    ),
    String.raw`\b(?:fino alla|verso la) luna\b|\b(?:va|andiamo|vola|voliamo|andra) (?:sulla|alla) luna\b`,
    rising(
      'salira|saliranno|esplodera|raddoppiera|andra alle stelle|crescera',
      'prezzo|valore|token|\\$?pepa|sicuramente|certamente|di sicuro|senza dubbio',
      'volte',
    ),
    String.raw`\bcompra(?:te)? (?:\$?pepa )?(?:ora|adesso|oggi|subito)\b`,
    String.raw`\b(?:rendimento|profitto|guadagno|guadagni) (?:del )?\d`,
    String.raw`\bsenza rischi?o?\b`,
    String.raw`\bsoldi facili\b`,
  ],
  russian: [
    near(
      String.raw`гарантир\p{L}*`,
      String.raw`доход\p{L}*|прибыл\p{L}*|цен\p{L}*|курс\p{L}*|токен\p{L}*|монет\p{L}*|деньг\p{L}*|заработ\p{L}*`,
    ),
    String.raw`\b(?:летим|полетит|улетит|идем|идём|пойдет|пойдёт|взлетит) на луну\b|\bдо луны\b`,
    rising(
      'вырастет|взлетит|подорожает|вырастут|удвоится|утроится|пойдет вверх|пойдёт вверх',
      'цена|курс|стоимость|токен|монета|\\$?pepa|пепа|точно|обязательно|непременно|гарантированно',
      'раз',
    ),
    String.raw`\bпокупай(?:те)? (?:\p{L}+ )?(?:сейчас|сегодня|срочно)\b`,
    String.raw`\b\d[\d,.]*\s?% (?:прибыли|дохода|доходности)\b`,
    String.raw`\bбез риска\b`,
    String.raw`\b(?:легкие|лёгкие) деньги\b`,
  ],
  turkish: [
    near('garanti(?:li|lidir)?', `kazanc|kar|getiri|fiyat\\p{L}*|deger\\p{L}*|para|${TOKEN}`),
    String.raw`\baya (?:gidecek|cikacak|ucacak)\b`,
    rising(
      'yukselecek|artacak|ucacak|patlayacak|katlanacak',
      'fiyat|fiyati|deger|degeri|token|\\$?pepa|kesinlikle|mutlaka|kesin',
      'kat',
    ),
    String.raw`\b(?:hemen|simdi|bugun) al\b`,
    String.raw`%\s?\d+ (?:kar|getiri|kazanc)\b`,
    String.raw`\b(?:risksiz|kolay para)\b`,
  ],
  chinese: [
    '保证|保證|稳赚|穩賺|暴涨|暴漲|翻倍|\\d+倍|到月球|上月球|必涨|必漲|一定会涨|一定會漲',
    '马上买|馬上買|现在买|現在買|立即购买|立即購買|无风险|無風險',
    '\\d+ ?%的?(?:收益|回报|回報|利润|利潤)|(?:收益|回报|回報)率?\\d',
  ],
  japanese: [
    '保証|必ず上がる|爆上げ|月まで|今すぐ買|確実に(?:儲|上が)|利回り|リスクなし|値上がり確実',
  ],
  korean: [
    '보장|무조건 (?:오른|상승)|떡상|달까지|\\d+배|지금 (?:사세요|매수)|수익률|무위험|확실한 수익',
  ],
  arabic: [
    'مضمون|ضمان|إلى القمر|الى القمر|سيرتفع|سترتفع|اشتر(?:ي|وا)? الآن|ربح مضمون|\\d+ ?ضعف',
    '\\d+ ?% ?(?:ربح|أرباح|عائد)|(?:ربح|أرباح|عائد) \\d+ ?%',
  ],
  hindi: [
    'गारंटी|चाँद तक|चांद तक|ज़रूर बढ़|जरूर बढ़|(?:कीमत|दाम|भाव)[^।.!?]{0,20}बढ़|\\d+ ?गुना|अभी खरीद',
    '\\d+ ?% ?(?:मुनाफ़?ा|रिटर्न|लाभ)',
  ],
};

/**
 * A multiplier: `100x`, `100 x` (the digits reading joins `1 0 0 x`), `x100`, `100×` (as x), of
 * ten or more, or of any size beside the token or money; never a measure (`10 x 20 metres`).
 */
const MULTIPLIERS = [
  String.raw`(?<![\d.,]\s?)\b[1-9]\d{1,5}(?:[.,]\d+)?\s?x\b(?!\s?\d)`,
  String.raw`(?<![\d.,]\s?)\bx\s?[1-9]\d{1,5}\b(?!\s?x)`,
  String.raw`(?:\$pepa|\b(?:${TOKEN}|sol|price|value|bags?|money|returns?|profits?)\b)[^.!?]{0,30}\b\d{1,6}(?:[.,]\d+)?\s?x\b(?!\s?\d)`,
];

/** Per cent beside a gain or a deadline: `50% return`, `1000% by Friday`, `10% a day`. */
const PER_CENT = [
  String.raw`\d[\d,.]*\s?%\s*(?:returns?|profits?|gains?|apy|apr|yield|interest|a (?:day|week|month)|daily|weekly|monthly)\b`,
  String.raw`\d[\d,.]*\s?%\s*(?:by|in|within|before|this|next) (?:\d+ )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|days?|weeks?|months?|year|spring|summer|autumn|winter)\b`,
];

/**
 * A word's edge in any script, for the Cyrillic patterns: JavaScript's `\b` knows only ASCII
 * letters, which is enough for the Latin patterns, matched on readings without diacritics, and
 * much faster (a pattern opening with a literal word is searched for, not tried everywhere).
 */
const EDGE = String.raw`(?:(?<![\p{L}\p{N}_])(?=[\p{L}\p{N}_])|(?<=[\p{L}\p{N}_])(?![\p{L}\p{N}_]))`;

const compile = (source: string, edge = String.raw`\b`) =>
  new RegExp(source.normalize('NFKC').replaceAll(String.raw`\b`, edge), 'u');

const PATTERNS: readonly RegExp[] = [
  ...Object.entries(PROMISES).flatMap(([language, sources]) =>
    sources.map((source) => compile(source, language === 'russian' ? EDGE : undefined)),
  ),
  ...[...MULTIPLIERS, ...PER_CENT].map((source) => compile(source)),
];

/** Whether `text` (any reading of a remark) holds the words of a financial promise. */
export function holdsPromise(text: string): boolean {
  const lowered = text.toLowerCase();
  return PATTERNS.some((pattern) => pattern.test(lowered));
}
