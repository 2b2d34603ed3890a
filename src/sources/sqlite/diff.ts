/**
 * Pure: which sessions to replay and which to drop, given the stamps of the previous and the
 * current listing. New sessions and sessions whose stamp changed are `changed`.
 *
 * @example diffStamps(new Map([['a', '1']]), new Map([['a', '2'], ['b', '1']])) // { changed: ['a', 'b'], removed: [] }
 */
export const diffStamps = (
  previous: ReadonlyMap<string, string>,
  current: ReadonlyMap<string, string>,
): { readonly changed: readonly string[]; readonly removed: readonly string[] } => {
  const changed: string[] = [];
  for (const [id, stamp] of current) if (previous.get(id) !== stamp) changed.push(id);
  const removed: string[] = [];
  for (const id of previous.keys()) if (!current.has(id)) removed.push(id);
  return { changed, removed };
};

/**
 * Pure: `ids` newest first by `activeAt`; ids it does not know come first (they may be new), and
 * equal times keep their order.
 */
export const newestFirst = (ids: readonly string[], activeAt: ReadonlyMap<string, number> | undefined): readonly string[] =>
  activeAt === undefined ? ids : [...ids].sort((a, b) => (activeAt.get(b) ?? Infinity) - (activeAt.get(a) ?? Infinity) || 0);
