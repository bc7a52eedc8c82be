import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The restricted-import messages ESLint gives `code` as if it were the file at `path`. */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('the lint boundaries between the page and the court gate', () => {
  it('refuse the page importing the gate, and let it import the generated gate client', async () => {
    expect(
      await boundaryErrors(
        'src/api/boundary-probe.ts',
        "import { Court } from '../../gate/src/court';\nexport const x = Court;\n",
      ),
    ).toEqual([expect.stringContaining('The page does not import the gate')]);
    expect(
      await boundaryErrors(
        'src/api/boundary-probe.ts',
        "import type { Problem } from '../../generated/gate/types.gen';\nexport type X = Problem;\n",
      ),
    ).toEqual([]);
  });

  it('refuse the gate importing the page or React, and let it import the generated contracts', async () => {
    expect(
      await boundaryErrors(
        'gate/src/boundary-probe.ts',
        "import { siteConfig } from '../../src/config/site';\nexport const y = siteConfig;\n",
      ),
    ).toEqual([expect.stringContaining('The gate imports no page')]);
    expect(
      await boundaryErrors(
        'gate/src/boundary-probe.ts',
        "import { useState } from 'react';\nexport const z = useState;\n",
      ),
    ).toEqual([expect.stringContaining('framework-free')]);
    expect(
      await boundaryErrors(
        'gate/src/boundary-probe.ts',
        "import type { Problem } from '../../generated/gate/types.gen';\nexport type X = Problem;\n",
      ),
    ).toEqual([]);
  });
});
