// Writes the display font the page ships: Cinzel 700 (from @fontsource/cinzel) cut down to the
// characters the site's copy is written in, so the file that the first screen waits for is small
// enough to preload. The output is committed (src/assets/fonts/), so neither a build nor an install
// needs the subsetter; run this again after upgrading the font or when a heading needs a
// character outside DISPLAY_RANGES (a browser test lists any such character).
//
//   node scripts/subset-fonts.mjs          writes the subset
//   node scripts/subset-fonts.mjs --check  exits 1 when the committed file is not what it writes
//
// Needs fontTools with brotli (Debian: apt-get install python3-fonttools python3-brotli;
// elsewhere: pip install fonttools brotli).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DISPLAY_FONT_FILE, DISPLAY_RANGES } from './lib/display-font.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
const source = require.resolve('@fontsource/cinzel/files/cinzel-latin-700-normal.woff2');
const target = join(root, DISPLAY_FONT_FILE);

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

function subset(output) {
  execFileSync(
    findPython(),
    [
      '-m',
      'fontTools.subset',
      source,
      `--unicodes=${DISPLAY_RANGES.join(',')}`,
      '--flavor=woff2',
      // Kerning and the font's own substitutions; nothing else the page uses.
      '--layout-features=kern,liga,locl',
      // No timestamps in the output: the same input gives the same bytes.
      '--no-recalc-timestamp',
      `--output-file=${output}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

const check = process.argv.includes('--check');
const scratch = mkdtempSync(join(tmpdir(), 'pepa-fonts-'));
try {
  const fresh = join(scratch, 'subset.woff2');
  subset(fresh);
  const bytes = readFileSync(fresh);
  if (check) {
    let committed = null;
    try {
      committed = readFileSync(target);
    } catch {
      // Reported below.
    }
    if (!committed || !committed.equals(bytes)) {
      console.error(`${DISPLAY_FONT_FILE} is not what scripts/subset-fonts.mjs writes; run it.`);
      process.exit(1);
    }
    console.log(`${DISPLAY_FONT_FILE}: up to date (${bytes.length} bytes)`);
  } else {
    writeFileSync(target, bytes);
    console.log(`wrote ${DISPLAY_FONT_FILE} (${bytes.length} bytes)`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
