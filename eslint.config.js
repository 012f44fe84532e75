// Type-aware lint for the whole workspace. The house rules (../shared/STYLE.md §3, §8, §9) are enforced
// here so that a review never has to.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const PLATFORM_NAMES = '^(AWS|Azure|GCP|VSphere|Nutanix|None|BareMetal|KubeVirt)$';

const TSYRINGE_RULE = {
  name: 'tsyringe',
  message: "Import DI helpers from the package's own src/di.ts (STYLE §3).",
};

const CONTRACT_ONLY =
  'Providers import only @wmco/core/provider, and @wmco/core/testing in tests (STYLE §1).';
const NO_OTHER_PROVIDER = {
  regex: '^@wmco/provider-',
  message: 'A provider never imports another provider (STYLE §1).',
};
const PROVIDER_PATHS = [TSYRINGE_RULE, { name: '@wmco/core', message: CONTRACT_ONLY }];

/** Warns at 200 lines (STYLE §8), while `max-lines` fails at 300. */
const fileLengthWarning = {
  meta: {
    type: 'suggestion',
    schema: [{ type: 'integer' }],
    messages: { long: 'File has {{n}} lines (aim for <= {{max}}).' },
  },
  create(context) {
    const max = context.options[0] ?? 200;
    return {
      Program(node) {
        const n = context.sourceCode.lines.length;
        if (n > max) context.report({ node, messageId: 'long', data: { n, max } });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.toolchain/**',
      '.ci-out/**',
      '**/*.d.ts',
      'packages/*/testdata/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { wmco: { rules: { 'file-length-warning': fileLengthWarning } } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [TSYRINGE_RULE],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/explicit-function-return-type': [
        'error',
        { allowExpressions: true, allowTypedFunctionExpressions: true, allowHigherOrderFunctions: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      complexity: ['error', 10],
      'max-depth': ['error', 3],
      'max-params': ['error', 4],
      'max-lines': ['error', { max: 300 }],
      'wmco/file-length-warning': ['warn', 200],
    },
  },
  {
    // di.ts is the one door to tsyringe, and it must never hand out the global container.
    files: ['packages/*/src/di.ts', 'examples/*/src/di.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'tsyringe',
              importNames: ['container', 'singleton', 'scoped', 'registry', 'autoInjectable'],
              message:
                'Only packages/operator/src/main.ts may use the global container; register-at-import decorators are banned (STYLE §3).',
            },
          ],
        },
      ],
    },
  },
  {
    // core's di.ts may create fresh children of the global container (newRootContainer), never register.
    files: ['packages/core/src/di.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'tsyringe', importNames: ['singleton', 'scoped', 'registry', 'autoInjectable'] }] },
      ],
    },
  },
  {
    files: ['packages/operator/src/main.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Providers, first- or third-party, build on the public contract only and never on each other (STYLE §1).
    files: ['packages/provider-*/src/**/*.ts', 'examples/provider-*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: PROVIDER_PATHS,
          patterns: [
            { regex: '^@wmco/core/(?!(provider|testing)$)', message: CONTRACT_ONLY },
            NO_OTHER_PROVIDER,
          ],
        },
      ],
    },
  },
  {
    files: ['packages/provider-*/src/**/*.ts', 'examples/provider-*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: PROVIDER_PATHS,
          patterns: [{ regex: '^@wmco/core/(?!provider$)', message: CONTRACT_ONLY }, NO_OTHER_PROVIDER],
        },
      ],
    },
  },
  {
    // An embedding example builds on the public entries only (@wmco/core, @wmco/core/provider, providers).
    files: ['examples/embedded-*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [TSYRINGE_RULE],
          patterns: [
            {
              regex: '^@wmco/core/(?!provider$)',
              message: 'An embedder uses the public entries only: @wmco/core and @wmco/core/provider.',
            },
          ],
        },
      ],
    },
  },
  {
    // No branching on the platform name outside provider packages: platforms differ through capabilities.
    files: [
      'packages/core/**/*.ts',
      'packages/sim/**/*.ts',
      'packages/operator/**/*.ts',
      'packages/world/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/${PLATFORM_NAMES}/]`,
          message: 'Compare no platform names outside provider packages; register a capability instead.',
        },
        {
          selector: `SwitchCase > Literal[value=/${PLATFORM_NAMES}/]`,
          message: 'Switch on no platform names outside provider packages; register a capability instead.',
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/testing/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'wmco/file-length-warning': ['warn', 300],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/explicit-function-return-type': 'off',
      // Optional chaining in assertions counts as branching; a test reads top to bottom anyway.
      complexity: 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
