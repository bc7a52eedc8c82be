/**
 * Where a card must never send its readers: off the site. Links to any host but the site's own
 * (with a scheme, `www.`, or a bare name under a top-level domain scams use, `t.me`, `wa.me`,
 * `discord.gg`, `bit.ly` among them, also with the dot spelt out), `.eth` and `.sol` names,
 * handles (`@…`, a Discord tag, "telegram: …"), and asking to be written to in private, in the
 * languages Pepa may be asked in. Latin-script patterns are written folded (lower case, no
 * diacritics), as the readings they are matched on are.
 */

/** Top-level domains (and wallet names) a link or a name off the site ends with. */
const TOPS = [
  ...['com', 'net', 'org', 'io', 'xyz', 'me', 'ly', 'gg', 'co', 'app', 'dev', 'info', 'biz'],
  ...['fun', 'site', 'online', 'club', 'vip', 'top', 'link', 'live', 'pro', 'finance', 'money'],
  ...['cash', 'to', 'tv', 'cc', 'ru', 'de', 'fr', 'es', 'it', 'pt', 'br', 'uk', 'us', 'tk'],
  ...['ml', 'ga', 'cf', 'gq', 'cn', 'jp', 'kr', 'in', 'eu', 'ai', 'so', 'sh', 'st', 'pw', 'page'],
  ...['one', 'world', 'art', 'news', 'shop', 'store', 'tech', 'space', 'website', 'cloud', 'lol'],
  ...['wtf', 'meme', 'ton', 'crypto', 'nft', 'dao', 'bet', 'win', 'game', 'games', 'social'],
  ...['chat', 'sol', 'eth', 'bnb', 'arb', 'base'],
];

/** A dot between a name's labels: written, or spelt out in brackets or as a word. */
const DOT = String.raw`(?:\.|\s*[[({<]\s*(?:dot|punto|ponto|point|punkt)\s*[\])}>]\s*|\s+(?:dot|punto|ponto|point|punkt)\s+)`;
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`;

/** A host under one of `TOPS`, standing alone (not inside an e-mail address or a longer word). */
const HOST = new RegExp(
  String.raw`(?<![\p{L}\p{N}@.-])(${LABEL}(?:${DOT}${LABEL})*${DOT}(?:${TOPS.join('|')}))(?![\p{L}\p{N}-])`,
  'gu',
);
/** A link with a scheme or `www.`: whatever its host. */
const SCHEMED = /(?:\b[a-z][a-z0-9+.-]{1,9}:\/\/|\bwww\.)([^\s/?#]+)/gu;

/** A handle: `@name` not inside an e-mail address, or a Discord tag (`frog#1234`). */
const HANDLES = [
  /(?<![\p{L}\p{N}._%+-])@[\p{L}\p{N}_][\p{L}\p{N}_.]{1,30}/u,
  /(?<![\p{L}\p{N}])\p{L}[\p{L}\p{N}_.]{1,31}#\d{4}(?!\d)/u,
  /\b(?:telegram|tg|whatsapp|discord|signal|wechat|snapchat|insta(?:gram)?|twitter|tiktok)\s*[:：]\s*@?[\p{L}\p{N}_.]{3,}/u,
];

/** Off-site places to be written to. */
const CHANNEL = String.raw`(?:telegram|tg|whatsapp|whats app|zap|discord|signal|wechat|twitter|insta(?:gram)?|snapchat|tiktok|e-?mail|mail)`;

/** Asking to be written to in private, per language. */
const PRIVATE: readonly string[] = [
  // English
  String.raw`\b(?:dm|pm|inbox) (?:me|us)\b`,
  String.raw`\bsend (?:me|us) an? (?:dm|pm|direct message|private message)\b`,
  String.raw`\b(?:slide|come) into (?:my|our) dms?\b`,
  String.raw`\b(?:my|our) dms? (?:are|is) open\b`,
  String.raw`\b(?:message|text|write|contact|reach|ping|find|add|call) (?:me|us)\b[^.!?]{0,12}\b(?:on|via|at|through|in) ${CHANNEL}\b`,
  // Spanish
  String.raw`\b(?:escribeme|mandame|enviame|contactame|hablame|escribenos)\b[^.!?]{0,20}\b(?:dm|md|privado|mensaje directo|${CHANNEL})\b`,
  String.raw`\bpor (?:dm|md|privado)\b`,
  // Portuguese
  String.raw`\b(?:me )?(?:chama|manda|chame|mande|fala|fale)\b[^.!?]{0,12}\b(?:dm|pv|privado|direct|inbox|${CHANNEL})\b`,
  // French
  String.raw`\b(?:ecris|envoie|contacte|ecrivez|envoyez|contactez)[- ]moi\b[^.!?]{0,20}\b(?:dm|mp|prive|${CHANNEL})\b`,
  String.raw`\ben (?:mp|dm|prive)\b`,
  // German
  String.raw`\b(?:schreib|schreibt|schick|schickt|kontaktier|kontaktiert)e? (?:mir|uns)\b[^.!?]{0,20}\b(?:dm|pn|privat|${CHANNEL})\b`,
  String.raw`\bper (?:dm|pn)\b`,
  // Italian
  String.raw`\b(?:scrivimi|mandami|contattami|scriveteci|scrivetemi)\b[^.!?]{0,20}\b(?:dm|privato|direct|${CHANNEL})\b`,
  String.raw`\bin (?:dm|privato)\b`,
  // Russian
  String.raw`(?:напиши|пиши|напишите|пишите|отправь|отправьте)[^.!?]{0,20}(?:лс|личк|личные|телеграм|ватсап|дискорд|тг)`,
  String.raw`(?:^|\s)в (?:лс|личку)(?:$|[\s.,!?])`,
  // Turkish
  String.raw`\b(?:dm|ozel|ozelden|telegram|whatsapp|discord)\b[^.!?]{0,15}\b(?:yaz|yazin|at|atin|ulas)\b`,
  // Chinese, Japanese, Korean, Arabic, Hindi
  '私信我|私聊我|加我(?:微信|电报|電報|好友)|联系我|聯繫我',
  'dm(?:ください|して|で連絡)|個別に連絡',
  'dm ?(?:주세요|보내)|디엠 ?(?:주세요|보내)|텔레그램으로 연락',
  'راسلني|راسلوني|تواصل معي (?:على|عبر)',
  '(?:डीएम|dm) (?:करें|करो)|व्हाट्सएप पर (?:संपर्क|मैसेज)',
];

const PRIVATE_PATTERNS = PRIVATE.map((source) => new RegExp(source, 'u'));

/** A host with its dots written as dots, lower case. */
function hostOf(found: string): string {
  return found
    .toLowerCase()
    .replace(/\s*[[({<]?\s*(?:dot|punto|ponto|point|punkt)\s*[\])}>]?\s*/gu, '.')
    .replace(/\s+/gu, '');
}

/** Letters and digits only: how a host is compared in a reading that joined its labels. */
const bare = (host: string) => host.replace(/[^\p{L}\p{N}]+/gu, '');

/** Whether `host` is the site's own, or one of its subdomains. */
function ownHost(host: string, site: string | undefined): boolean {
  if (!site) return false;
  const own = site.toLowerCase().replace(/^www\./, '');
  if (host === own || host.endsWith(`.${own}`)) return true;
  return [bare(own), `www${bare(own)}`].includes(bare(host));
}

/**
 * Whether `text` (a reading of a remark) points off the site: a link or name to any host but
 * `site` (the site's own host), a `.eth` or `.sol` name, a handle, or asks to be written to in
 * private.
 */
export function holdsReach(text: string, site?: string): boolean {
  const lowered = text.toLowerCase();
  for (const pattern of [HOST, SCHEMED]) {
    for (const found of lowered.matchAll(pattern)) {
      if (!ownHost(hostOf(found[1] ?? ''), site)) return true;
    }
  }
  if (HANDLES.some((handle) => handle.test(text))) return true;
  return PRIVATE_PATTERNS.some((pattern) => pattern.test(lowered));
}
