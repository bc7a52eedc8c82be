import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The architecture, enforced: the call library (src/lib) is framework-free and knows nothing of
 * the site; a feature never reaches into another feature; pages are composed in src/app; the page
 * never imports the gate or the go-live scripts (assistant/ may import src/, never the reverse).
 */
const restricted = (patterns) => ['error', { patterns }];
const LIBRARY_BOUNDARY = [
  {
    group: ['**/features/**', '**/app/**', '**/api/**', '**/config/**'],
    message: 'The call library imports no feature, page, API layer or site configuration.',
  },
  {
    group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
    message: 'The call library is framework-free.',
  },
];
/** The page and the court gate share only what is generated from the contracts. */
const PAGE_BOUNDARY = [
  {
    group: ['**/gate/**', '!**/generated/gate/**', '../../gate', '../../../gate'],
    message: 'The page does not import the gate; they share only generated/ (the contracts).',
  },
  {
    group: ['**/assistant/**', '../assistant', '../../assistant', '../../../assistant'],
    message:
      'The page does not import the go-live scripts (assistant/); what both need lives in src/ (e.g. src/config/pepa-persona.ts).',
  },
];
/** `import()` is not an import declaration: the same boundary, for lazy imports. */
const NO_LAZY_ASSISTANT = {
  selector: 'ImportExpression[source.value=/(^|\\/)assistant(\\/|$)/]',
  message: 'The page does not import the go-live scripts (assistant/), not even lazily.',
};
const GATE_BOUNDARY = [
  {
    group: ['**/src/**', '../../src', '**/assistant/**', '**/scripts/**'],
    message: 'The gate imports no page, assistant or script code; they share only generated/.',
  },
  {
    group: ['react', 'react-dom', 'react/*', 'react-dom/*', '@tanstack/*'],
    message: 'The gate is framework-free.',
  },
];
/**
 * The call library has one front door, src/lib/call/index.ts: code outside the library imports
 * `lib/call` and nothing behind it (tests outside may use its test kit, `lib/call/test/`).
 */
const CALL_INTERNALS = /(^|\/)lib\/call\/|^\.\/call\//;
const CALL_DOOR_MESSAGE =
  "Outside the call library, import its front door ('…/lib/call'), not a module behind it.";
const callDoor = ({ testKit = false } = {}) => [
  {
    regex: testKit ? '(^|/)lib/call/(?!test/)|^\\./call/(?!test/)' : '(^|/)lib/call/|^\\./call/',
    message: CALL_DOOR_MESSAGE,
  },
];
/** `import()` is not an import declaration: the same door, for lazy imports. */
const NO_LAZY_CALL_INTERNALS = {
  selector: `ImportExpression[source.value=${CALL_INTERNALS}]`,
  message: CALL_DOOR_MESSAGE,
};
const FEATURES = ['landing', 'talk'];
const featureBoundary = (feature) => [
  {
    group: FEATURES.filter((other) => other !== feature).flatMap((other) => [
      `../${other}`,
      `../${other}/**`,
      `../../${other}`,
      `../../${other}/**`,
      `**/features/${other}/**`,
    ]),
    message: 'A feature does not import another feature; compose them in src/app.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'generated/**',
      'dist/**',
      'dist-ssr/**',
      '.e2e-dist/**',
      '.bench-dist/**',
      '.budget-dist/**',
      '.budget-dist-demo/**',
      'bench/**',
      '**/.wrangler/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    languageOptions: {
      ...jsxA11y.flatConfigs.recommended.languageOptions,
      globals: { ...globals.browser },
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-syntax': ['error', NO_LAZY_ASSISTANT, NO_LAZY_CALL_INTERNALS],
    },
  },
  {
    files: ['src/lib/**/*.{ts,tsx}'],
    ignores: ['src/lib/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restricted([...LIBRARY_BOUNDARY, ...PAGE_BOUNDARY, ...callDoor()]),
      'no-restricted-syntax': [
        'error',
        NO_LAZY_ASSISTANT,
        NO_LAZY_CALL_INTERNALS,
        {
          selector: "MemberExpression[object.name='window'][property.name='location']",
          message: 'The call library does not read the page address; the composition root does.',
        },
      ],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': restricted([
        ...featureBoundary(feature),
        ...PAGE_BOUNDARY,
        ...callDoor(),
      ]),
    },
  })),
  ...FEATURES.map((feature) => ({
    // A feature's tests may also drive the call library's test kit.
    files: [`src/features/${feature}/**/*.test.{ts,tsx}`, `src/features/${feature}/**/test/**`],
    rules: {
      'no-restricted-imports': restricted([
        ...featureBoundary(feature),
        ...PAGE_BOUNDARY,
        ...callDoor({ testKit: true }),
      ]),
    },
  })),
  {
    // The library's own tests may use what the page may use, and no more.
    files: ['src/lib/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restricted([...PAGE_BOUNDARY, ...callDoor({ testKit: true })]),
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/features/**', 'src/lib/**'],
    rules: { 'no-restricted-imports': restricted([...PAGE_BOUNDARY, ...callDoor()]) },
  },
  {
    // Inside the library every module is its own: the door is for the rest of the house.
    files: ['src/lib/call/**/*.{ts,tsx}'],
    ignores: ['src/lib/call/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restricted([...LIBRARY_BOUNDARY, ...PAGE_BOUNDARY]),
    },
  },
  {
    files: ['src/lib/call/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': restricted(PAGE_BOUNDARY) },
  },
  {
    files: ['gate/src/**/*.ts'],
    rules: { 'no-restricted-imports': restricted(GATE_BOUNDARY) },
  },
  {
    files: [
      'assistant/**/*.ts',
      'scripts/**/*.{js,mjs,ts}',
      'e2e/**/*.ts',
      'tests/**/*.ts',
      'gate/test-workerd/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': restricted(callDoor()),
      'no-restricted-syntax': ['error', NO_LAZY_CALL_INTERNALS],
    },
  },
  {
    files: [
      'assistant/**/*.test.ts',
      'scripts/**/*.test.{js,mjs,ts}',
      'e2e/**/*.ts',
      'tests/**/*.ts',
      'gate/test-workerd/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': restricted(callDoor({ testKit: true })),
    },
  },
  {
    files: ['gate/dev/**/*.{js,mjs}', 'gate/test-workerd/**/*.ts', 'gate/vitest.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: [
      'scripts/**/*.{js,mjs,ts}',
      'assistant/**/*.ts',
      'e2e/**/*.ts',
      'tests/**/*.ts',
      '*.config.{js,ts}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
