import { keyPath } from './key-path.js';

/**
 * How deeply a config document may nest. agentwatch's own settings go three levels down
 * (`webhooks[0].events[0]`); the user's own keys get room to spare. Deeper documents are refused
 * by name: writing one back (JSON.stringify, a back-fill, PUT /api/config) would overflow the
 * stack a few thousand levels down, and each level costs its indentation on every line below.
 */
const MAX_CONFIG_DEPTH = 64;

/**
 * Why `value` nests deeper than `limit` levels, naming the key under which it does by the first
 * three steps of the path (`webhooks[0].extra: nested more than 64 levels deep`), or undefined.
 * Iterative, so any depth is checked.
 */
export const depthProblem = (value: unknown, limit = MAX_CONFIG_DEPTH): string | undefined => {
  const stack: { readonly value: unknown; readonly path: readonly (string | number)[] }[] = [{ value, path: [] }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.value !== 'object' || top.value === null) continue;
    if (top.path.length >= limit) return `${keyPath(top.path.slice(0, 3)) || '(root)'}: nested more than ${limit} levels deep`;
    const entries: [string | number, unknown][] = Array.isArray(top.value) ? top.value.map((item, index) => [index, item]) : Object.entries(top.value);
    for (const [key, inner] of entries) stack.push({ value: inner, path: [...top.path, key] });
  }
  return undefined;
};
