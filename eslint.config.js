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
const FEATURES = ['landing', 'talk'];
const featureBoundary = (feature) => [
  {
    group: FEATURES.filter((other) => other !== feature).flatMap((other) => [
      `../${other}`,
      `../${other}/**`,
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
      'no-restricted-syntax': ['error', NO_LAZY_ASSISTANT],
    },
  },
  {
    files: ['src/lib/**/*.{ts,tsx}'],
    ignores: ['src/lib/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restricted([...LIBRARY_BOUNDARY, ...PAGE_BOUNDARY]),
      'no-restricted-syntax': [
        'error',
        NO_LAZY_ASSISTANT,
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
      'no-restricted-imports': restricted([...featureBoundary(feature), ...PAGE_BOUNDARY]),
    },
  })),
  {
    // The library's own tests may use what the page may use, and no more.
    files: ['src/lib/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': restricted(PAGE_BOUNDARY) },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/features/**', 'src/lib/**'],
    rules: { 'no-restricted-imports': restricted(PAGE_BOUNDARY) },
  },
  {
    files: ['gate/src/**/*.ts'],
    rules: { 'no-restricted-imports': restricted(GATE_BOUNDARY) },
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
