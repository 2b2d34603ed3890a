/**
 * An immutable map with structural sharing (a hash array mapped trie): `set`/`delete` return a new
 * map that shares every untouched branch with the old one, in O(log32 n) time and memory, and the
 * old map stays valid and unchanged. The fold publishes a new sessions map per batch of events:
 * a plain `Map` would have to be copied whole per batch, while updating this one costs a few small
 * array copies per touched session. Reads and iteration are slower than a `Map`'s; the fold's
 * writes are far cheaper (docs/performance.md, `bench/persistent-map.mjs`).
 *
 * Iteration order is the trie's (by key hash), not insertion order; it is stable for a given set
 * of keys. Keys are strings.
 */

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

interface Leaf<V> {
  readonly kind: 0;
  readonly hash: number;
  readonly key: string;
  readonly value: V;
}

interface Branch<V> {
  readonly kind: 1;
  /** Bit i set: the child for hash fragment i is present, at index popcount(bitmap below i). */
  readonly bitmap: number;
  readonly children: readonly Child<V>[];
}

/** Keys whose 32-bit hashes are equal (rare). */
interface Collision<V> {
  readonly kind: 2;
  readonly hash: number;
  readonly leaves: readonly Leaf<V>[];
}

type Child<V> = Leaf<V> | Branch<V> | Collision<V>;

/** FNV-1a over UTF-16 code units. */
const hashOf = (key: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

const popcount = (n: number): number => {
  let x = n - ((n >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
};

const fragment = (hash: number, shift: number): number => (hash >>> shift) & MASK;

const leaf = <V>(hash: number, key: string, value: V): Leaf<V> => ({ kind: 0, hash, key, value });

const replaced = <T>(items: readonly T[], index: number, item: T): T[] => {
  const copy = items.slice();
  copy[index] = item;
  return copy;
};

const inserted = <T>(items: readonly T[], index: number, item: T): T[] => {
  const copy = new Array<T>(items.length + 1);
  for (let i = 0; i < index; i += 1) copy[i] = items[i] as T;
  copy[index] = item;
  for (let i = index; i < items.length; i += 1) copy[i + 1] = items[i] as T;
  return copy;
};

const removed = <T>(items: readonly T[], index: number): T[] => {
  const copy = items.slice();
  copy.splice(index, 1);
  return copy;
};

/** A branch (or collision) holding two leaves with different keys, from `shift` down. */
const pair = <V>(a: Leaf<V>, b: Leaf<V>, shift: number): Branch<V> | Collision<V> => {
  if (a.hash === b.hash || shift >= 32) return { kind: 2, hash: a.hash, leaves: [a, b] };
  const fa = fragment(a.hash, shift);
  const fb = fragment(b.hash, shift);
  if (fa === fb) return { kind: 1, bitmap: 1 << fa, children: [pair(a, b, shift + BITS)] };
  return { kind: 1, bitmap: (1 << fa) | (1 << fb), children: fa < fb ? [a, b] : [b, a] };
};

const lookup = <V>(node: Child<V>, hash: number, key: string, shift: number): Leaf<V> | undefined => {
  for (;;) {
    if (node.kind === 0) return node.key === key ? node : undefined;
    if (node.kind === 2) return node.hash === hash ? node.leaves.find((l) => l.key === key) : undefined;
    const bit = 1 << fragment(hash, shift);
    if ((node.bitmap & bit) === 0) return undefined;
    node = node.children[popcount(node.bitmap & (bit - 1))] as Child<V>;
    shift += BITS;
  }
};

/** `node` with `key` set; the same node when the value is already there. `grew` reports a new key. */
const assoc = <V>(node: Child<V>, hash: number, key: string, value: V, shift: number, grew: { added: boolean }): Child<V> => {
  if (node.kind === 0) {
    if (node.key === key) return node.value === value ? node : leaf(hash, key, value);
    grew.added = true;
    return pair(node, leaf(hash, key, value), shift);
  }
  if (node.kind === 2) {
    if (node.hash !== hash) {
      grew.added = true;
      // Push the collision one level down beside the new leaf.
      const branch: Branch<V> = { kind: 1, bitmap: 1 << fragment(node.hash, shift), children: [node] };
      return assoc(branch, hash, key, value, shift, grew);
    }
    const at = node.leaves.findIndex((l) => l.key === key);
    if (at === -1) {
      grew.added = true;
      return { kind: 2, hash, leaves: [...node.leaves, leaf(hash, key, value)] };
    }
    if ((node.leaves[at] as Leaf<V>).value === value) return node;
    return { kind: 2, hash, leaves: replaced(node.leaves, at, leaf(hash, key, value)) };
  }
  const bit = 1 << fragment(hash, shift);
  const index = popcount(node.bitmap & (bit - 1));
  if ((node.bitmap & bit) === 0) {
    grew.added = true;
    return { kind: 1, bitmap: node.bitmap | bit, children: inserted(node.children, index, leaf(hash, key, value)) };
  }
  const child = node.children[index] as Child<V>;
  const next = assoc(child, hash, key, value, shift + BITS, grew);
  return next === child ? node : { kind: 1, bitmap: node.bitmap, children: replaced(node.children, index, next) };
};

/** `node` without `key`: the same node when absent, `undefined` when it becomes empty. */
const dissoc = <V>(node: Child<V>, hash: number, key: string, shift: number): Child<V> | undefined => {
  if (node.kind === 0) return node.key === key ? undefined : node;
  if (node.kind === 2) {
    if (node.hash !== hash) return node;
    const at = node.leaves.findIndex((l) => l.key === key);
    if (at === -1) return node;
    const rest = removed(node.leaves, at);
    return rest.length === 1 ? rest[0] : { kind: 2, hash, leaves: rest };
  }
  const bit = 1 << fragment(hash, shift);
  if ((node.bitmap & bit) === 0) return node;
  const index = popcount(node.bitmap & (bit - 1));
  const child = node.children[index] as Child<V>;
  const next = dissoc(child, hash, key, shift + BITS);
  if (next === child) return node;
  if (next === undefined) {
    if (node.children.length === 1) return undefined;
    const children = removed(node.children, index);
    // A branch left with one leaf (or collision) collapses into it, so lookups stay short.
    if (children.length === 1 && (children[0] as Child<V>).kind !== 1) return children[0];
    return { kind: 1, bitmap: node.bitmap & ~bit, children };
  }
  return { kind: 1, bitmap: node.bitmap, children: replaced(node.children, index, next) };
};

/** The subtrie of `leaves` (distinct keys) from `shift` down, shaped as successive `assoc`s shape it. */
const build = <V>(leaves: readonly Leaf<V>[], shift: number): Child<V> => {
  const first = leaves[0] as Leaf<V>;
  if (leaves.length === 1) return first;
  if (shift >= 32 || leaves.every((l) => l.hash === first.hash)) return { kind: 2, hash: first.hash, leaves };
  const groups: (Leaf<V>[] | undefined)[] = new Array<Leaf<V>[] | undefined>(WIDTH);
  let bitmap = 0;
  for (const l of leaves) {
    const f = fragment(l.hash, shift);
    (groups[f] ??= []).push(l);
    bitmap |= 1 << f;
  }
  const children: Child<V>[] = [];
  for (const group of groups) if (group !== undefined) children.push(build(group, shift + BITS));
  return { kind: 1, bitmap, children };
};

/** One change of a bulk update: `value` undefined deletes `key`. */
interface Change<V> {
  readonly hash: number;
  readonly key: string;
  readonly value: V | undefined;
}

/** `node`'s own leaves (a leaf or a collision) with `changes` applied, rebuilt from `shift`. */
const mergeLeaves = <V>(node: Leaf<V> | Collision<V>, changes: readonly Change<V>[], shift: number, size: { delta: number }): Child<V> | undefined => {
  const pending = new Map<string, Change<V>>();
  for (const c of changes) pending.set(c.key, c);
  let changed = false;
  const leaves: Leaf<V>[] = [];
  for (const l of node.kind === 0 ? [node] : node.leaves) {
    const c = pending.get(l.key);
    if (c === undefined) {
      leaves.push(l);
      continue;
    }
    pending.delete(l.key);
    if (c.value === l.value) leaves.push(l);
    else {
      changed = true;
      if (c.value === undefined) size.delta -= 1;
      else leaves.push(leaf(l.hash, l.key, c.value));
    }
  }
  for (const c of pending.values()) {
    if (c.value === undefined) continue;
    changed = true;
    size.delta += 1;
    leaves.push(leaf(c.hash, c.key, c.value));
  }
  if (!changed) return node;
  return leaves.length === 0 ? undefined : build(leaves, shift);
};

/**
 * `node` (undefined: an empty place) with `changes` applied; their keys are distinct and all
 * belong at this place of the trie. Each node on the changed paths is copied once, whatever the
 * number of changes below it (one `set` per change copies a path each). The same node when
 * nothing changed; undefined when nothing is left. `size.delta` counts keys added minus removed.
 */
const merge = <V>(node: Child<V> | undefined, changes: readonly Change<V>[], shift: number, size: { delta: number }): Child<V> | undefined => {
  if (node === undefined) {
    const leaves: Leaf<V>[] = [];
    for (const c of changes) if (c.value !== undefined) leaves.push(leaf(c.hash, c.key, c.value));
    size.delta += leaves.length;
    return leaves.length === 0 ? undefined : build(leaves, shift);
  }
  if (node.kind !== 1) return mergeLeaves(node, changes, shift, size);
  const groups: (Change<V>[] | undefined)[] = new Array<Change<V>[] | undefined>(WIDTH);
  for (const c of changes) (groups[fragment(c.hash, shift)] ??= []).push(c);
  const children: Child<V>[] = [];
  let bitmap = 0;
  let changed = false;
  let at = 0;
  for (let f = 0; f < WIDTH; f += 1) {
    const bit = 1 << f;
    const existing = (node.bitmap & bit) !== 0 ? node.children[at++] : undefined;
    const group = groups[f];
    const next = group === undefined ? existing : merge(existing, group, shift + BITS, size);
    if (next !== existing) changed = true;
    if (next === undefined) continue;
    children.push(next);
    bitmap |= bit;
  }
  if (!changed) return node;
  if (children.length === 0) return undefined;
  // A branch left with one leaf (or collision) collapses into it, as `dissoc` does.
  if (children.length === 1 && (children[0] as Child<V>).kind !== 1) return children[0];
  return { kind: 1, bitmap, children };
};

/** Leaves in trie order, without a generator per level. */
function* leavesOf<V>(root: Child<V> | undefined): Generator<Leaf<V>, void, undefined> {
  if (!root) return;
  const stack: Child<V>[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Child<V>;
    if (node.kind === 0) yield node;
    else if (node.kind === 2) yield* node.leaves;
    else for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i] as Child<V>);
  }
}

export class PersistentMap<K extends string, V> implements ReadonlyMap<K, V> {
  static empty<K extends string, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>(undefined, 0);
  }

  /** A map of `entries` (the last value of a repeated key wins), built in one pass without path copies. */
  static from<K extends string, V>(entries: Iterable<readonly [K, V]>): PersistentMap<K, V> {
    const unique = entries instanceof Map ? (entries as ReadonlyMap<K, V>) : new Map<K, V>(entries);
    if (unique.size === 0) return PersistentMap.empty<K, V>();
    const leaves: Leaf<V>[] = [];
    for (const [key, value] of unique) leaves.push(leaf(hashOf(key), key, value));
    return new PersistentMap<K, V>(build(leaves, 0), leaves.length);
  }

  private constructor(
    private readonly root: Child<V> | undefined,
    readonly size: number,
  ) {}

  get(key: K): V | undefined {
    return this.root ? lookup(this.root, hashOf(key), key, 0)?.value : undefined;
  }

  has(key: K): boolean {
    return this.root !== undefined && lookup(this.root, hashOf(key), key, 0) !== undefined;
  }

  /** A map with `key` set to `value` (this one when it already holds exactly that). */
  set(key: K, value: V): PersistentMap<K, V> {
    const hash = hashOf(key);
    const grew = { added: false };
    if (!this.root) return new PersistentMap<K, V>({ kind: 1, bitmap: 1 << fragment(hash, 0), children: [leaf(hash, key, value)] }, 1);
    const root = assoc(this.root, hash, key, value, 0, grew);
    return root === this.root ? this : new PersistentMap<K, V>(root, this.size + (grew.added ? 1 : 0));
  }

  /**
   * This map with every change applied (`undefined` deletes the key). Many changes at once (a
   * warm start restores thousands of sessions in a few batches) are merged into the trie in one
   * pass, copying each node on their paths once: the cost follows the batch, not the map.
   */
  withChanges(changes: ReadonlyMap<K, V | undefined>): PersistentMap<K, V> {
    if (changes.size < 8) return applyEach(this, changes);
    const list: Change<V>[] = [];
    for (const [key, value] of changes) list.push({ hash: hashOf(key), key, value });
    const size = { delta: 0 };
    const root = merge(this.root, list, 0, size);
    return root === this.root ? this : new PersistentMap<K, V>(root, this.size + size.delta);
  }

  /** A map without `key` (this one when it has no such key). */
  delete(key: K): PersistentMap<K, V> {
    if (!this.root) return this;
    const root = dissoc(this.root, hashOf(key), key, 0);
    if (root === this.root) return this;
    return new PersistentMap<K, V>(root, this.size - 1);
  }

  *entries(): MapIterator<[K, V]> {
    for (const l of leavesOf(this.root)) yield [l.key as K, l.value];
  }

  *keys(): MapIterator<K> {
    for (const l of leavesOf(this.root)) yield l.key as K;
  }

  *values(): MapIterator<V> {
    for (const l of leavesOf(this.root)) yield l.value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    // The walk of `leavesOf` without its generator: a pass over every session (the first frame,
    // a metrics scrape) spent more in resuming the generator than in the callback.
    if (!this.root) return;
    const stack: Child<V>[] = [this.root];
    while (stack.length > 0) {
      const node = stack.pop() as Child<V>;
      if (node.kind === 0) callback.call(thisArg, node.value, node.key as K, this);
      else if (node.kind === 2) for (const l of node.leaves) callback.call(thisArg, l.value, l.key as K, this);
      else for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i] as Child<V>);
    }
  }

  get [Symbol.toStringTag](): string {
    return 'PersistentMap';
  }
}

/** `changes` applied one `set`/`delete` at a time (few changes to a big map). */
const applyEach = <K extends string, V>(map: PersistentMap<K, V>, changes: ReadonlyMap<K, V | undefined>): PersistentMap<K, V> => {
  let next = map;
  for (const [key, value] of changes) next = value === undefined ? next.delete(key) : next.set(key, value);
  return next;
};
