import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Type-aware rules over TypeScript and JavaScript alike: each file is checked with the
// tsconfig.json nearest to it (infra/ and bench/ have one that takes their JavaScript).
// Tool configuration files (jest, eslint) are linted without type information.
const CONFIG_FILES = ['*.js', '*.mjs', '**/jest.config.js', 'protos/scripts/*.js'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/src/generated/**', '.data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // JavaScript files that a declaration file beside them hides from their tsconfig.
          allowDefaultProject: [
            'infra/src/admin-client.js',
            'infra/src/demo-world.js',
            'infra/src/migrate-services.js',
            'infra/src/net.js',
            'infra/src/stack.js',
            'infra/src/entry-point.js',
            'infra/src/run-examples.js',
            'infra/src/user-token.js',
            'infra/src/runtime.js',
            'infra/src/find-services.js',
            // The layer rules' configuration (a CommonJS file no tsconfig includes).
            '.dependency-cruiser.cjs',
          ],
          // Eleven files above: more than the default cap of eight, each one parse more.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // CommonJS: the launcher, the benchmarks and the tool configurations.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: CONFIG_FILES, ...tseslint.configs.disableTypeChecked },
  {
    // The console runs in the browser and reads Discord's JSON of any shape field by field
    // (rendering it as text nodes only: console/src/dom.ts).
    files: ['console/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Parsed JSON answers of any shape: the end-to-end tests read fields off them freely
    // (and check their shapes against Discord's OpenAPI schemas instead).
    files: ['infra/src/admin-client.d.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
