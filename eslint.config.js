// Lint: typescript-eslint's strict, type-aware rules plus the import boundaries of STYLE.md / DESIGN.md §1.
// The boundaries are what keep code runnable where its folder says it runs: which packages a folder may
// use is no-restricted-imports below; which folders of src/ it may use is the layering table in
// eslint/layering.js.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import svelteConfig from './svelte.config.js';
import layering from './eslint/layering.js';

const nodeOnly = ['node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'worker_threads'];
const engineOnly = ['better-sqlite3', 'chokidar', 'got', 'fastify', 'sharp'];

/** A no-restricted-imports rule that forbids the given module patterns with a reason. */
function forbid(patterns, message) {
  return { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] };
}

export default tseslint.config(
  // test/lint/fixtures/ holds imports that must fail: its test lints them as if they sat in src/.
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.bench-tmp/', 'test-results/', 'test/lint/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'resources/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Fastify handlers are async by convention whether or not they await; the rule only adds noise.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'as', objectLiteralTypeAssertions: 'never' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='only']", message: 'No .only in tests.' }],
    },
  },
  {
    // Electron stays in the desktop shell: what the engine needs from it comes in as a function.
    ignores: ['src/main/desktop/**'],
    rules: forbid(['electron'], 'Only src/main/desktop/ imports electron: pass what the engine needs in as a function.'),
  },
  // The renderer (Svelte 5 + TypeScript): type-aware rules in .svelte files too, through its own tsconfig.
  ...svelte.configs.recommended,
  {
    files: ['src/renderer/**/*.svelte', 'src/renderer/**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: tseslint.parser, svelteConfig },
    },
  },
  {
    files: ['src/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/shared/**/*.ts', 'src/renderer/**/*.ts', 'src/renderer/**/*.svelte'],
    rules: forbid([...nodeOnly, ...engineOnly, 'electron'], 'src/shared and src/renderer run anywhere: no Node, Electron or engine modules.'),
  },
  {
    files: ['src/service/**/*.ts'],
    rules: forbid(['electron', 'chokidar', 'got'], 'The service runs without Electron, the watcher or the client\'s HTTP stack.'),
  },
  {
    // Each folder of src/ imports only what its row of the layering table lists: no back-running import.
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    plugins: { local: { rules: { layering } } },
    rules: { 'local/layering': 'error' },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      // Tests read arbitrary JSON answers and assert their shape with expect().
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
