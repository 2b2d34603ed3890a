/** Bytes of JSON gathered before a chunk is handed to the writer. */
const CHUNK_CHARS = 256 * 1024;

/**
 * `JSON.stringify(items.map(toValue), null, 2)` in chunks of about 256 KiB, each value built and
 * stringified only when its turn comes, so a listing of thousands of sessions never holds every
 * value, the whole text and its encoded copy at once (a 12 MB `sessions --json` held all three).
 * The text is the same byte for byte: an element's own lines are indented one level more, and JSON
 * text has no raw newline outside that layout (newlines inside strings are escaped).
 */
export function* jsonArrayChunks<T>(items: readonly T[], toValue: (item: T) => unknown): Generator<string> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  let chunk = '[\n  ';
  for (let i = 0; i < items.length; i += 1) {
    const text = JSON.stringify(toValue(items[i] as T), null, 2) ?? 'null';
    chunk += (i === 0 ? '' : ',\n  ') + text.replaceAll('\n', '\n  ');
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}\n]`;
}
