// @ts-check
// What the surge's text visitors write. On a viral day most first messages repeat: a chat opens
// with one of some thirty common openings, the most common far more often than the rest (Zipf's
// law: the k-th is written 1/k as often as the first), each written the way people type it
// (capitals, a "!", an emoji), and a share of chats opens with words of their own. The messages
// after the first are questions of the visitor's own. The gate answers an opening it has already
// answered today from Pepa's earlier replies (GATE_CHAT_OPENINGS): how many first messages it
// answered so is the day's `text.fromRecord` in the owner's report.

/** The common openings, the most written first. */
export const OPENINGS = [
  'gm',
  'hi',
  'hello',
  'who are you',
  'what is $PEPA',
  'wen moon',
  'hey pepa',
  'gm pepa',
  'hi pepa',
  'ribbit',
  'how are you',
  'what is this',
  'is this real',
  'are you an AI',
  'wagmi',
  'lfg',
  'good morning',
  'yo',
  'hey',
  'who made you',
  'what can you do',
  'tell me a joke',
  'what is the pond',
  'how do I buy $PEPA',
  'are you a frog',
  'sup',
  'gn',
  'hola',
  'can you hear me',
  'what should I ask you',
];

/** Of the chats, those that open with words of their own, written by no one else. */
export const UNIQUE_SHARE = 0.2;

/** How each opening may be written: as it is, shouted, with a mark or an emoji after it. */
const DRESSINGS = [
  (/** @type {string} */ text) => text,
  (/** @type {string} */ text) => `${text}!`,
  (/** @type {string} */ text) => text.toUpperCase(),
  (/** @type {string} */ text) => `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}?`,
  (/** @type {string} */ text) => `${text} 🐸`,
];

/** The Zipf weights of the openings, summed as they go (the k-th weighs 1/k). */
const CUMULATIVE = OPENINGS.reduce((sums, _text, k) => {
  sums.push((sums.at(-1) ?? 0) + 1 / (k + 1));
  return sums;
}, /** @type {number[]} */ ([]));

/** Things a visitor asks of their own, put together so that no two chats ask the same. */
const SUBJECTS = ['the grotto', 'my bag', 'the lilies', 'the roadmap', 'the court', 'staking'];

/**
 * A chat's first message: a common opening drawn by its Zipf weight and dressed as typed, or
 * (UNIQUE_SHARE of chats) a question of the visitor's own, numbered at random so it is theirs.
 * @param {() => number} random
 * @returns {string}
 */
export function firstMessage(random) {
  if (random() < UNIQUE_SHARE) {
    const subject = SUBJECTS[Math.floor(random() * SUBJECTS.length)] ?? SUBJECTS[0];
    return `Pepa, what about ${subject}, question ${Math.floor(random() * 1e9)}?`;
  }
  const total = CUMULATIVE.at(-1) ?? 1;
  const draw = random() * total;
  const k = Math.max(
    0,
    CUMULATIVE.findIndex((sum) => draw < sum),
  );
  const dress = DRESSINGS[Math.floor(random() * DRESSINGS.length)] ?? DRESSINGS[0];
  return dress?.(OPENINGS[k] ?? 'gm') ?? 'gm';
}

/** What visitors ask after their first message, short and long. */
export const LATER_MESSAGES = [
  'Hi Pepa!',
  'What is $PEPA?',
  'Is staking open yet?',
  'Tell me about the pond',
  'Where do I find the contract address?',
  'Should I buy now?',
  'What is in the grotto?',
];

/**
 * The share of the first messages answered that the gate answered from the record, as a line of
 * the table: `fromRecord` from the day's totals, `answered` the first messages the surge's
 * visitors and its text attacker were answered.
 * @param {number} fromRecord
 * @param {number} answered
 * @returns {string}
 */
export function fromRecordShare(fromRecord, answered) {
  if (answered === 0) return 'no first message answered';
  return `${fromRecord} of ${answered} (${((fromRecord / answered) * 100).toFixed(1)} %)`;
}
