// Lint rules: typescript-eslint's recommended set (syntax-only, so linting stays fast),
// with formatting left to Prettier.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'var/', 'coverage/', 'bench/results/', '.tmp/', 'test-output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    // Constructor parameter types are runtime values for tsyringe: tell the rules about metadata.
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { disallowTypeAnnotations: false, fixStyle: 'inline-type-imports' },
      ],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['tools/**', 'bench/**', 'test/**', '**/*.mjs', '**/*.cjs'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.cjs', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
