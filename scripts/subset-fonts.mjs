// @ts-check
// Writes the fonts the page ships (scripts/lib/font-subsets.mjs): Cinzel 700 for display type and
// Inter's variable font for text, each cut down to the characters the site's copy is written in
// (and Inter to the weights the page uses), so both are small enough to travel inside the page
// itself. The output is committed (src/assets/fonts/), so neither a build nor an install needs the
// subsetter; run this again after upgrading a font or when the copy needs a character outside
// SUBSET_RANGES (a browser test lists any such character).
//
//   node scripts/subset-fonts.mjs          writes the subsets
//   node scripts/subset-fonts.mjs --check  exits 1 when a committed file is not what it writes
//
// Needs fontTools with brotli (Debian: apt-get install python3-fonttools python3-brotli;
// elsewhere: pip install fonttools brotli).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FONT_SUBSETS, SUBSET_RANGES } from './lib/font-subsets.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));

/** The first Python that has fontTools and brotli (woff2 needs both). */
function findPython() {
  for (const python of ['python3', '/usr/bin/python3', 'python']) {
    try {
      execFileSync(python, ['-c', 'import fontTools.subset, brotli'], { stdio: 'ignore' });
      return python;
    } catch {
      // Try the next one.
    }
  }
  throw new Error(
    'fontTools with brotli is needed: apt-get install python3-fonttools python3-brotli ' +
      '(Debian/Ubuntu) or pip install fonttools brotli',
  );
}

// Limits a variable font's axes, then subsets it. The arguments are JSON on the command line; no
// timestamps are written, so the same input gives the same bytes.
const SUBSET_PY = `
import json, sys
from fontTools.ttLib import TTFont
from fontTools import subset
from fontTools.varLib import instancer
job = json.loads(sys.argv[1])
font = TTFont(job["source"], recalcTimestamp=False)
if job["axes"]:
    font = instancer.instantiateVariableFont(
        font, {tag: tuple(limits) for tag, limits in job["axes"].items()})
options = subset.Options()
options.flavor = "woff2"
# Kerning and the font's own substitutions; nothing else the page uses.
options.layout_features = ["kern", "liga", "locl"]
options.recalc_timestamp = False
subsetter = subset.Subsetter(options)
subsetter.populate(unicodes=subset.parse_unicodes(job["unicodes"]))
subsetter.subset(font)
font.flavor = "woff2"
font.save(job["output"])
`;

/**
 * @param {string} python
 * @param {import('./lib/font-subsets.mjs').FontSubset} font
 * @param {string} output
 */
function writeSubset(python, font, output) {
  const job = {
    source: require.resolve(font.source),
    axes: font.axes ?? null,
    unicodes: SUBSET_RANGES.join(','),
    output,
  };
  execFileSync(python, ['-c', SUBSET_PY, JSON.stringify(job)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const check = process.argv.includes('--check');
const python = findPython();
const scratch = mkdtempSync(join(tmpdir(), 'pepa-fonts-'));
let stale = false;
try {
  for (const font of FONT_SUBSETS) {
    const fresh = join(scratch, 'subset.woff2');
    writeSubset(python, font, fresh);
    const bytes = readFileSync(fresh);
    const target = join(root, font.file);
    if (check) {
      let committed = null;
      try {
        committed = readFileSync(target);
      } catch {
        // Reported below.
      }
      if (!committed || !committed.equals(bytes)) {
        console.error(`${font.file} is not what scripts/subset-fonts.mjs writes; run it.`);
        stale = true;
      } else console.log(`${font.file}: up to date (${bytes.length} bytes)`);
    } else {
      writeFileSync(target, bytes);
      console.log(`wrote ${font.file} (${bytes.length} bytes)`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (stale) process.exit(1);
