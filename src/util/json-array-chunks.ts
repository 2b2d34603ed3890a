/** Values stringified together: one call per batch, its text spliced into the array's. */
const BATCH = 64;

/**
 * `JSON.stringify(items.map(toValue), null, 2)` in chunks of BATCH values, each value built only
 * when its batch comes, so a listing of thousands of sessions never holds every value, the whole
 * text and its encoded copy at once. The text is the
 * same byte for byte: a batch stringified as an array is `[` + its elements' lines + `\n]`, and
 * those middles joined with commas are the whole array's (cheaper than stringifying each value
 * alone and indenting its lines).
 */
export function* jsonArrayChunks<T>(items: readonly T[], toValue: (item: T) => unknown): Generator<string> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  for (let from = 0; from < items.length; from += BATCH) {
    const values = items.slice(from, from + BATCH).map(toValue);
    const text = JSON.stringify(values, null, 2);
    // `[` + `\n  value,\n  value` + `\n]`: the middle, after `[` for the first batch and `,` for the rest.
    yield (from === 0 ? '[' : ',') + text.slice(1, -2);
  }
  yield '\n]';
}
