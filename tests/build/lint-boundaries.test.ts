import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

const BOUNDARY_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

/** The boundary messages ESLint gives `code` as if it were the file at `path`. */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId !== null && BOUNDARY_RULES.has(message.ruleId))
    .map((message) => message.message);
}

describe('the lint boundaries between the page and the court gate', () => {
  it('refuse the page importing the gate, and let it import the generated gate client', async () => {
    expect(
      await boundaryErrors(
        'src/api/boundary-probe.ts',
        "import { Court } from '../../gate/src/calls/court';\nexport const x = Court;\n",
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

describe('the lint boundary between the page and the go-live scripts', () => {
  it.each([
    ['a feature', 'src/features/talk/boundary-probe.ts', '../../../assistant/pepa'],
    ['the call library', 'src/lib/call/boundary-probe.ts', '../../../assistant/pepa'],
    ['a library test', 'src/lib/call/boundary-probe.test.ts', '../../../assistant/pepa'],
    ['the app shell', 'src/app/boundary-probe.ts', '../../assistant/doctor'],
  ])('refuses %s importing assistant/, statically or lazily', async (_who, path, from) => {
    expect(
      await boundaryErrors(path, `import { pepa } from '${from}';\nexport const p = pepa;\n`),
    ).toEqual([expect.stringContaining('The page does not import the go-live scripts')]);
    expect(await boundaryErrors(path, `export const load = () => import('${from}');\n`)).toEqual([
      expect.stringContaining('The page does not import the go-live scripts'),
    ]);
  });

  it("lets assistant/ import the page's shared persona", async () => {
    expect(
      await boundaryErrors(
        'assistant/boundary-probe.ts',
        "import { PEPA_FIRST_MESSAGE } from '../src/config/pepa-persona';\nexport const f = PEPA_FIRST_MESSAGE;\n",
      ),
    ).toEqual([]);
  });
});

describe("the lint boundary at the call library's front door", () => {
  it.each([
    ['a feature', 'src/features/talk/boundary-probe.ts', '../../lib/call/pepa-call'],
    ['the API layer', 'src/api/boundary-probe.ts', '../lib/call/call-events'],
    ['a browser test', 'e2e/boundary-probe.ts', '../src/lib/call/simulator/scenarios'],
    ['a go-live script', 'assistant/boundary-probe.ts', '../src/lib/call/room-url'],
    ['a library neighbour', 'src/lib/boundary-probe.ts', './call/call-events'],
  ])(
    'refuses %s importing a module behind the door, statically or lazily',
    async (_who, path, from) => {
      expect(
        await boundaryErrors(path, `import { x } from '${from}';\nexport const y = x;\n`),
      ).toEqual([expect.stringContaining("import its front door ('…/lib/call')")]);
      expect(await boundaryErrors(path, `export const load = () => import('${from}');\n`)).toEqual([
        expect.stringContaining("import its front door ('…/lib/call')"),
      ]);
    },
  );

  it('lets the house import the door, tests outside use the test kit, and the library itself import its modules', async () => {
    const through = (path: string, from: string) =>
      boundaryErrors(path, `import { x } from '${from}';\nexport const y = x;\n`);
    expect(await through('src/features/talk/boundary-probe.ts', '../../lib/call')).toEqual([]);
    expect(await through('assistant/boundary-probe.ts', '../src/lib/call')).toEqual([]);
    expect(
      await through('src/features/talk/boundary-probe.test.ts', '../../lib/call/test/fake-daily'),
    ).toEqual([]);
    expect(
      await through('src/features/talk/boundary-probe.ts', '../../lib/call/test/fake-daily'),
    ).toEqual([expect.stringContaining('front door')]);
    expect(await through('src/lib/call/boundary-probe.ts', './call-events')).toEqual([]);
    expect(await through('src/lib/call/simulator/boundary-probe.ts', '../daily-types')).toEqual([]);
  });
});
