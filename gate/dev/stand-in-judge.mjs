// @ts-check
// The stand-in's card judge: what the provider's chat answers when the gate asks it to judge a
// remark for a quote card (a `POST /chat` whose transient assistant carries the card judge's
// rubric). The gate's prompt and its parsing of the answer are the real ones; only the model is
// stood in for. It reads the remark from between the marks the gate's input names, and decides by
// a short table of meanings, in the languages the demo and the tests use:
//   promise        riches, profit, gains or returns promised (also in Polish, Dutch, Indonesian,
//                  Ukrainian, Romanian and unaccented Vietnamese), an airdrop, a "lambo";
//   funds          a verb of sending beside money or a token, a wallet to connect or verify;
//   contact        "message me", "write to me", "my inbox", "in private", "join my group";
//   impersonation  speaking as the official team, an admin, support, or an exchange.
// Anything else is allowed. Its answers are the rubric's exact forms ("ALLOW", "REFUSE funds"),
// so the gate's parser is what the tests exercise.

/** The rubric's name as its first line says it: how the stand-in knows a judge's request. */
const RUBRIC_MARK = /rubric (pepa-card-judge\/\d+)/u;

/** The remark between the marks the input names: `<<<line-{nonce}` … `line-{nonce}>>>`. */
const QUOTED = /<<<line-([0-9a-f]+)\n([\s\S]*)\nline-\1>>>/u;

/** Each harm, and the folded words that mean it here (whole words, lower case, no accents). */
const MEANINGS = /** @type {const} */ ([
  [
    'funds',
    [
      /\b(send|sending|transfer|deposit|wyslij|przelej|stuur|kirim|trimite|gui)\b.{0,40}\b(sol|eth|btc|usdt|usdc|bnb|tokens?|coins?|crypto|money|pepa|dollars?|pieniadze|geld|uang|bani|tien)\b/u,
      /надішли.{0,40}(sol|eth|btc|usdt|токен|гроші|монет)/u,
      /\b(connect|verify|unlock|link|sync)\b.{0,20}\bwallets?\b/u,
      /\b(polacz|podlacz)\w*\b.{0,20}\bportfel\w*/u,
      /\b(koppel|verbind)\w*\b.{0,20}\b(wallet|portemonnee)\b/u,
      /\b(hubungkan|sambungkan)\b.{0,20}\bdompet\b/u,
      /підключ.{0,20}гаманець/u,
    ],
  ],
  [
    'promise',
    [
      /\b(get|be|become|make you|will be|grow) (rich|wealthy|millionaires?)\b/u,
      /\b(profits?|gains|returns) (for|to) (every|all|each)\b/u,
      /\b(guaranteed|sure|certain|easy) (profits?|gains|money|returns)\b/u,
      /\b(free )?airdrop\b/u,
      /\blambos?\b/u,
      /\b(zysk\w*|bogac\w*|bogaty|bogaci)\b/u,
      /\b(winst|rijk|rijkdom)\b/u,
      /\b(untung|cuan|kaya raya)\b/u,
      /(прибут\w*|розбагат\w*|багатими)/u,
      /\b(profit\w*|castig\w*|bogat\w*|imbogat\w*)\b/u,
      /\b(loi nhuan|giau to|lam giau)\b/u,
    ],
  ],
  [
    'contact',
    [
      /\b(message|text|write to|dm|ping|call) me\b/u,
      /\bmy (inbox|dms?|group|channel)\b/u,
      /\b(in|by) private\b/u,
      /\bjoin (my|our) (group|channel|chat)\b/u,
      /\b(napisz do mnie|schrijf me|hubungi saya|scrie-mi)\b/u,
      /напиши мені/u,
    ],
  ],
  [
    'impersonation',
    [
      /\b(official|officially) (\$?pepa )?(team|admin|support|account|announcement)\b/u,
      /\b(i am|i'm|we are|this is) (the |an? )?(admin|developer|dev|founder|ceo|support|moderator)\b/u,
      /\b(binance|coinbase|kraken|metamask|phantom) (support|team|here)\b/u,
    ],
  ],
]);

/**
 * The remark a judge's request asks about, or null when the request is not the card judge's.
 * @param {any} body the `POST /chat` body
 * @returns {string | null}
 */
export function judgedWords(body) {
  const messages = body?.assistant?.model?.messages;
  const rubric = Array.isArray(messages) ? messages[0]?.content : undefined;
  if (typeof rubric !== 'string' || !RUBRIC_MARK.test(rubric)) return null;
  if (typeof body.input !== 'string') return null;
  return QUOTED.exec(body.input)?.[2] ?? null;
}

/**
 * The stand-in's answer about `remark`, in the rubric's words.
 * @param {string} remark
 * @returns {string}
 */
export function standInVerdict(remark) {
  const folded = remark
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/gu, 'l')
    .toLowerCase()
    .replace(/[’‘`]/gu, "'")
    .replace(/\s+/gu, ' ');
  for (const [harm, patterns] of MEANINGS) {
    if (patterns.some((pattern) => pattern.test(folded))) return `REFUSE ${harm}`;
  }
  return 'ALLOW';
}
