/**
 * Where given keys occur in a line streamed in pieces, without holding the line: for a record over
 * the line cap, whose keys an agent may write anywhere (Claude Code writes a tool result's
 * timestamp between two copies of its output, megabytes from either end).
 */

/** A raw key found in a line: which key, its byte offset in the line, and the bytes after it. */
export interface KeyHit {
  readonly key: number;
  readonly offset: number;
  /** Up to KEY_VALUE_BYTES bytes following the key (its value, when short). */
  readonly after: Buffer;
}

/** Bytes kept after a key: enough for an ISO timestamp or an id. */
const KEY_VALUE_BYTES = 96;

/** Hits kept of each key at either end of a line (a line of tool output may repeat a key often). */
const KEPT_PER_END = 4;

export interface KeyScanner {
  /** Feeds the line's next bytes (copied where kept: the caller reuses its buffers). */
  readonly push: (bytes: Buffer) => void;
  /** Every hit so far (the first and last KEPT_PER_END of each key), in line order; then starts over. */
  readonly finish: () => KeyHit[];
}

/** A scanner for `keys` (raw bytes such as `"timestamp":`). */
export const createKeyScanner = (keys: readonly Buffer[]): KeyScanner => {
  const longest = Math.max(0, ...keys.map((key) => key.length));
  // The last bytes seen, so a key or its value cut by a chunk edge is still found whole.
  const carryBytes = longest + KEY_VALUE_BYTES;
  let carry = Buffer.alloc(0);
  // Line offset of carry's first byte.
  let carryAt = 0;
  // Hits before this line offset were recorded already (they sit in the carry again).
  let doneBefore = 0;
  let hits: KeyHit[][] = keys.map(() => []);

  const record = (key: number, hit: KeyHit): void => {
    const list = hits[key] ?? [];
    list.push(hit);
    // The middle of a long run of hits tells nothing the ends do not.
    if (list.length > 2 * KEPT_PER_END) list.splice(KEPT_PER_END, 1);
  };

  /** Records the hits in `window` (starting at line offset `at`) that start before `until`. */
  const scan = (window: Buffer, at: number, until: number): void => {
    keys.forEach((key, index) => {
      for (let from = Math.max(0, doneBefore - at); ; ) {
        const found = window.indexOf(key, from);
        if (found === -1 || at + found >= until) break;
        const valueStart = found + key.length;
        record(index, { key: index, offset: at + found, after: Buffer.from(window.subarray(valueStart, valueStart + KEY_VALUE_BYTES)) });
        from = found + 1;
      }
    });
    doneBefore = Math.max(doneBefore, until);
  };

  return {
    push: (bytes) => {
      if (bytes.length === 0) return;
      const window = carry.length === 0 ? bytes : Buffer.concat([carry, bytes]);
      const end = carryAt + window.length;
      // A hit starting in the last carryBytes may still lack bytes of its value: the next push (or
      // finish) records it.
      scan(window, carryAt, end - carryBytes);
      const keep = Math.min(carryBytes, window.length);
      carry = Buffer.from(window.subarray(window.length - keep));
      carryAt = end - keep;
    },
    finish: () => {
      scan(carry, carryAt, carryAt + carry.length);
      const all = hits.flat().sort((a, b) => a.offset - b.offset);
      carry = Buffer.alloc(0);
      carryAt = 0;
      doneBefore = 0;
      hits = keys.map(() => []);
      return all;
    },
  };
};
