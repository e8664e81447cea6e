// Lint rules that protect what the compiler cannot see: unawaited promises and
// non-deterministic Node APIs inside Temporal workflow code.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process', 'worker_threads', 'timers', 'process'];

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', '.tools/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // node:test's describe() and test() return promises the runner itself awaits.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: nodeBuiltins.flatMap((name) => [name, `node:${name}`]).map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
        patterns: [{ group: ['**/activities/**', '!**/activities/**/*.ts'], message: 'Import activities with import type only.' }],
      }],
    },
  },
);
