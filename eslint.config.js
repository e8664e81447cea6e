// Lint rules that protect what the compiler cannot see: unawaited promises, the module boundaries, and
// deterministic Temporal workflow code. Module boundaries are checked by test/platform/boundaries.unit.test.ts;
// test/platform/lintRules.unit.test.ts shows that the workflow rule fails on a value import of activities.
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'fs',
  'path',
  'crypto',
  'http',
  'https',
  'net',
  'os',
  'child_process',
  'worker_threads',
  'timers',
  'process',
];

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', '.tools/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A module's messages.ts merges its keys into the platform's ModuleMessageKeys with an empty `extends`.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // node:test's describe() and test() return promises the runner itself awaits.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Scenarios read the service's answers as a client reads JSON: the steps check the fields they use.
    files: ['scenarios/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The platform knows no feature: it never imports a module.
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/**'],
              message: 'The platform knows no module; a module registers with it (src/platform/module.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // A contract holds the types that cross into workflow history: its own, domain types and other contracts'. An API
    // view, a repo row or an activity file would make an API change a change of what running workflows replay.
    files: ['src/modules/*/contract.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(views|repo|activities|operations)(\\.ts$|/)',
              message:
                'A contract owns the types that cross into history: no view, repo row, activity or operation file, not even as a type.',
            },
          ],
        },
      ],
    },
  },
  {
    // Workflow code is replayed: it imports @temporalio/workflow, its own contract and pure domain code, another
    // module's contract (to start that module's process as a child) and its own workflow<Part>.ts files, held to the
    // same rule. Nothing else, not even a type: what crosses into history (inputs, activity signatures, update and
    // query results, failures) is the contract's own type, so no view, repo row or activity file reaches it.
    files: ['src/modules/*/workflows.ts', 'src/modules/*/workflow[A-Z]*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', disallowTypeAnnotations: false },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins
            .flatMap((name) => [name, `node:${name}`])
            .map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
          patterns: [
            {
              regex:
                '^(?!@temporalio/workflow$|\\./contract\\.ts$|\\.\\./[a-z-]+/contract\\.ts$|\\./domain\\.ts$|\\./workflow[A-Z]\\w*\\.ts$)',
              message:
                "A workflow imports only from @temporalio/workflow, ./contract.ts, ./domain.ts, another module's contract.ts and its own ./workflow<Part>.ts, types included: the types that cross into history (activity signatures above all) belong to the contract.",
            },
          ],
        },
      ],
    },
  },
);
