/**
 * One copy of each repeated short string a monitor holds per session (cwd, model, branch, agent
 * version): every transcript line and every cache row parses its own copy, and 10,000 sessions
 * hold only a few hundred distinct values. Lookups cost a hash of the string; values longer than
 * INTERN_MAX_LENGTH (message text) are returned as they are.
 */
export const INTERN_MAX_LENGTH = 256;
/** Distinct values kept; the table starts over when it is full (a value then may exist twice, never wrong). */
const INTERN_MAX_VALUES = 20_000;

export type Interner = (value: string) => string;

export const createInterner = (maxValues = INTERN_MAX_VALUES): Interner => {
  let table = new Map<string, string>();
  return (value) => {
    if (value.length === 0 || value.length > INTERN_MAX_LENGTH) return value;
    const known = table.get(value);
    if (known !== undefined) return known;
    if (table.size >= maxValues) table = new Map();
    table.set(value, value);
    return value;
  };
};

/**
 * The process's table. NOTE: module state on purpose: interning is invisible to callers (the
 * same value comes back), and one table shared by the fold and the cache is what makes it pay.
 */
export const intern: Interner = createInterner();
