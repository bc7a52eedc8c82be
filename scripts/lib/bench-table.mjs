// The bench's one table: a row per figure with its budget and result, notes under it, and the
// formats its figures are written in.

/** @typedef {'pass' | 'FAIL' | 'info' | 'n/a'} Result */
/**
 * A figure, or the reason there is none.
 * @typedef {{ ms: number, problem: null } | { ms: null, problem: string }} Timing
 */

/** @param {boolean} pass @returns {Result} */
export const verdict = (pass) => (pass ? 'pass' : 'FAIL');

/** @param {string} text */
export const log = (text) => console.error(`bench: ${text}`);
/** @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * A multi-line tool error (colours, code frames) as one short table cell.
 * @param {string} text
 */
export function oneLine(text, maxLength = 200) {
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '').replace(/│/g, ' ');
  const flat = plain.replace(/\s+/g, ' ').trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

/**
 * The median of at least one value.
 * @param {number[]} values
 */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (/** @type {number} */ index) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}
/** @param {number} value */
export const ms = (value) => `${Math.round(value)} ms`;
/** @param {number} value */
export const seconds = (value) => `${(value / 1000).toFixed(2)} s`;
/** @param {number} bytes */
export const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
/**
 * "median (min–max of n)" for timing samples.
 * @param {number[]} values
 * @param {(value: number) => string} format
 */
export const spread = (values, format) =>
  values.length > 1
    ? `${format(median(values))} ` +
      `(${format(Math.min(...values))}–${format(Math.max(...values))}, n=${values.length})`
    : format(values[0] ?? Number.NaN);

/** @param {Timing} timing */
export const describeTiming = (timing) =>
  timing.ms === null ? String(timing.problem) : ms(timing.ms);

/** The table the bench fills as it measures. */
export function createBenchTable() {
  /** @type {string[][]} */
  const rows = [];
  /** @type {string[]} */
  const notes = [];
  let failed = false;

  /**
   * @param {string} metric
   * @param {string} figure
   * @param {string} budget
   * @param {Result} result
   */
  function row(metric, figure, budget, result) {
    // A pipe inside a cell would split it into two Markdown columns.
    rows.push([metric, figure.replace(/\|/g, '\\|'), budget, result]);
    if (result === 'FAIL') failed = true;
  }

  /**
   * A timing row from samples: the median when every sample produced a figure; 'n/a' with the
   * reason when none did (the UI is not there yet); FAIL when only some did.
   * @template Sample
   * @param {string} metric
   * @param {Sample[]} samples
   * @param {(sample: Sample) => Timing} pick
   * @param {number | null} budgetMs
   */
  function timingRow(metric, samples, pick, budgetMs) {
    const timings = samples.map(pick);
    const values = timings.flatMap((timing) => (timing.ms === null ? [] : [timing.ms]));
    const budget = budgetMs === null ? '—' : `≤ ${ms(budgetMs)}`;
    const problem = timings.find((timing) => timing.problem)?.problem ?? 'no samples';
    if (values.length === 0) {
      row(metric, `n/a (${problem})`, budget, 'n/a');
      return;
    }
    if (values.length < samples.length) {
      row(metric, `${values.length} of ${samples.length} samples (${problem})`, budget, 'FAIL');
      return;
    }
    const value = median(values);
    row(
      metric,
      spread(values, ms),
      budget,
      budgetMs === null ? 'info' : verdict(value <= budgetMs),
    );
  }

  return {
    rows,
    notes,
    row,
    timingRow,
    /** @param {string} text */
    note: (text) => notes.push(text),
    get failed() {
      return failed;
    },
  };
}

/** @typedef {ReturnType<typeof createBenchTable>} BenchTable */
