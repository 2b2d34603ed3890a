import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The floors of src/, bottom to top: a folder may import its own floor's folders only where
 * SAME_FLOOR says so, and no folder above its own. Dynamic `import()` is held to the same rule.
 */
const FLOORS = [['core', 'util'], ['config', 'demo'], ['limits'], ['sources', 'desktop'], ['streams'], ['search', 'doctor'], ['sinks'], ['app'], ['commands'], ['cli']];
/** Same-floor imports that are allowed: util uses the process handle. */
const SAME_FLOOR = { util: ['core'] };

const layerRules = FLOORS.flatMap((floor, level) =>
  floor.flatMap((folder) => {
    const allowed = SAME_FLOOR[folder] ?? [];
    // `streams/contracts.js`: that file of the folder only.
    const files = allowed.filter((entry) => entry.includes('/'));
    const partly = [...new Set(files.map((entry) => entry.split('/')[0]))];
    const beside = floor.filter((other) => other !== folder && !allowed.includes(other) && !partly.includes(other));
    const forbidden = [...beside, ...FLOORS.slice(level + 1).flat()];
    if (forbidden.length === 0) return [];
    const message = `src/${folder} may not import a folder on its floor or above (${forbidden.join(', ')}): move what both need down, or pass it in from above`;
    // An import path names a folder as `../<folder>/`; the slash is written [\x2F] (a selector's regex ends at a slash).
    const dynamic = `ImportExpression[source.value=/(^|[\\x2F])(${[...forbidden, ...partly].join('|')})[\\x2F]/]`;
    return [
      {
        files: [`src/${folder}/**/*.ts`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                { group: forbidden.map((name) => `**/${name}/**`), message },
                ...partly.map((name) => ({
                  group: [`**/${name}/**`, ...files.filter((entry) => entry.startsWith(`${name}/`)).map((entry) => `!**/${entry}`)],
                  message: `src/${folder} may import only ${files.join(', ')} of its floor`,
                })),
                ...(folder === 'streams' ? [{ group: ['node:fs', 'node:fs/*', 'fs', 'fs/*'], message: 'streams are pure: the caller reads the disk and passes the result in' }] : []),
              ],
            },
          ],
          'no-restricted-syntax': ['error', { selector: dynamic, message }],
        },
      },
    ];
  }),
);

export default tseslint.config(
  { ignores: ['dist/**', '.dist-*/**', 'node_modules/**', 'coverage/**', 'bench/.corpus/**', 'bench/.corpus-*/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  ...layerRules,
  {
    files: ['bench/**/*.mjs', 'scripts/**/*.mjs', 'test/**/*.mjs', 'web/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', fetch: 'readonly' } },
  },
);
