import { describe, expect, it } from 'vitest';
import { BYTE_BUDGETS, byteRows } from './bundle-stats.mjs';

const size = (brotli: number) => ({ raw: brotli * 4, gzip: brotli * 2, brotli });

describe('byteRows', () => {
  it('lists the page, its JS, CSS and fonts, then each on-demand chunk, with the budget each has', () => {
    const rows = byteRows({
      page: size(40),
      initialJs: { files: [], total: size(60) },
      initialCss: { files: [], total: size(8) },
      initialFonts: { files: [], total: size(24) },
      onDemand: [
        { file: 'assets/call-view-x.js', label: 'call-view.js', ...size(30) },
        { file: 'assets/call-view-x.css', label: 'call-view.css', ...size(2) },
      ],
    });
    expect(
      rows.map(({ name, size, budget, onDemand }) => [name, size.brotli, budget, onDemand]),
    ).toEqual([
      ['index.html (two round trips on a new connection)', 40, BYTE_BUDGETS.page, false],
      ['initial JS (index.html)', 60, BYTE_BUDGETS.initialJs, false],
      ['initial CSS (index.html)', 8, null, false],
      ['fonts carried in index.html', 24, null, false],
      ['on demand: call-view.js', 30, BYTE_BUDGETS.onDemandChunk, true],
      ['on demand: call-view.css', 2, null, true],
    ]);
  });
});
