// ESLint flat config: typescript-eslint's recommended rules on the TypeScript sources (syntax-only:
// no type information, so that `npm run lint` takes seconds, not a second build), and ESLint's on
// the scripts. The rules turned off are the ones this codebase breaks on purpose, each with why.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'out/', 'docs/api/', 'packages/cli/templates/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `_name` marks a parameter an interface imposes and this implementation does not read; a caught
      // error may go unread (the catch then says what failed in its own words).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // The CLI tests look for terminal escape sequences (\x1b) in the output on purpose.
      'no-control-regex': 'off',
      // Dense loops write several assignments or calls as one comma expression (`a[k] = x, b[k] = y;`),
      // and `ok && list.push(x)`, `c ? a.push(x) : b.push(x)` as statements, as the C++ they follow does.
      '@typescript-eslint/no-unused-expressions': 'off',
      // Numeric locals start at 0 even where every path assigns them first: V8 then keeps them numbers.
      'no-useless-assignment': 'off',
      // `let [nx, ny, nz] = r` where only some are reassigned stays one declaration.
      'prefer-const': ['error', { destructuring: 'all' }],
      // Walking up the scene graph starts from this node: `let n: Node | null = this` is the loop's cursor, not an alias.
      '@typescript-eslint/no-this-alias': 'off',
    },
  },
  {
    files: ['packages/viewer/**/*.ts', '**/*.spec.ts', '**/*test-support.ts'],
    rules: {
      // three.js objects built at run time, the values a test page returns (page.evaluate) and the JSON
      // that tests read back (meshio's output, step probes) have no static type.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
