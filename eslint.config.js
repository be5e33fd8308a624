// Lint: typescript-eslint's strict, type-aware rules plus the import boundaries of STYLE.md / DESIGN.md §1.
// The boundaries are what keep code runnable where its folder says it runs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';
import svelteConfig from './svelte.config.js';

const nodeOnly = ['node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'worker_threads'];
const engineOnly = ['better-sqlite3', 'chokidar', 'got', 'fastify', 'sharp'];

/** A no-restricted-imports rule that forbids the given module patterns with a reason. */
function forbid(patterns, message) {
  return { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] };
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.bench-tmp/', 'test-results/'] },
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
      ...forbid(['electron'], 'Only src/main/desktop/ imports electron: pass what the engine needs in as a function.'),
    },
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
    rules: forbid(['electron', 'chokidar', 'got', '**/main/**', '**/renderer/**'], 'The service depends only on src/shared.'),
  },
  {
    // Two composition roots may start the embedded service (issue 16): the CLI's commands (and its
    // dispatcher) and the app's entry points. The engine and the app controller get it passed in.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/cli/*-command.ts', 'src/main/headless/headless-app.ts', 'src/main/desktop/main.ts', 'src/cli.ts', 'src/main/**/*.test.ts'],
    rules: forbid(['electron', '**/service/**'], 'Only the CLI commands, headless-app.ts and the app entry import src/service/: pass what the app needs in (e.g. a LocalLibrary).'),
  },
  {
    files: ['src/main/desktop/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
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
