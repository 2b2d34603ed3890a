import { describe, expect, it } from 'vitest';
import { PersistentMap } from '../../src/streams/persistent-map.js';
import { popWake, pushWake, wakeQueueOf, type WakeQueue } from '../../src/streams/wake-queue.js';

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** The map's hash (FNV-1a), to build keys that collide on purpose. */
const fnv = (key: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
};

/** Two distinct keys with the same 32-bit hash (found by a birthday search over `claude:<base36>`). */
const collidingPair = (): [string, string] => ['claude:10wzx', 'claude:1f6cd'];

const asSortedEntries = (map: ReadonlyMap<string, number>): [string, number][] => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('PersistentMap', () => {
  it('from() and withChanges() build the map one pass at a time and behave like successive sets (collisions included)', () => {
    const rand = mulberry32(5);
    const [c1, c2] = collidingPair();
    const keys = [...Array.from({ length: 2_000 }, (_, i) => `claude:${i.toString(36)}`), c1, c2];
    for (let round = 0; round < 20; round += 1) {
      const reference = new Map<string, number>();
      for (const key of keys) if (rand() < 0.6) reference.set(key, Math.floor(rand() * 100));
      const built = PersistentMap.from(reference);
      expect(built.size).toBe(reference.size);
      expect(asSortedEntries(built)).toEqual(asSortedEntries(reference));
      for (const key of keys) expect(built.get(key)).toBe(reference.get(key));
      // Few changes (one at a time) and many (a rebuild) must agree with a plain Map.
      for (const share of [0.01, 0.5]) {
        const changes = new Map<string, number | undefined>();
        for (const key of keys) if (rand() < share) changes.set(key, rand() < 0.3 ? undefined : Math.floor(rand() * 100));
        const changed = built.withChanges(changes);
        const expected = new Map(reference);
        for (const [key, value] of changes) {
          if (value === undefined) expected.delete(key);
          else expected.set(key, value);
        }
        expect(changed.size).toBe(expected.size);
        expect(asSortedEntries(changed)).toEqual(asSortedEntries(expected));
        // The map it came from is unchanged, and the new one keeps working with set/delete.
        expect(asSortedEntries(built)).toEqual(asSortedEntries(reference));
        const again = changed.delete(c1).set('claude:new', 1);
        expect(again.get(c1)).toBeUndefined();
        expect(again.get('claude:new')).toBe(1);
        expect(again.get(c2)).toBe(expected.get(c2));
      }
    }
  });

  it('withChanges() merges a batch into an empty, a one-key and a colliding map, and can empty a map', () => {
    const [c1, c2] = collidingPair();
    const keys = Array.from({ length: 300 }, (_, i) => `codex:${i}`);
    const batch = new Map<string, number | undefined>(keys.map((key, i) => [key, i]));
    const filled = PersistentMap.empty<string, number>().withChanges(batch);
    expect(filled.size).toBe(300);
    expect(keys.every((key, i) => filled.get(key) === i)).toBe(true);
    const one = PersistentMap.from([[c1, 1]]).withChanges(new Map<string, number | undefined>([...batch, [c2, 2]]));
    expect([one.size, one.get(c1), one.get(c2), one.get('codex:7')]).toEqual([302, 1, 2, 7]);
    const emptied = one.withChanges(new Map<string, number | undefined>([...keys, c1, c2].map((key) => [key, undefined])));
    expect([emptied.size, [...emptied]]).toEqual([0, []]);
    // A batch that sets what is already there, or deletes what is absent, changes nothing.
    expect(filled.withChanges(new Map<string, number | undefined>([...batch, ['absent', undefined]]))).toBe(filled);
  });

  it('behaves like a Map under random sets and deletes, and every earlier version stays as it was', () => {
    const rand = mulberry32(11);
    const [c1, c2] = collidingPair();
    // A small key space, so sets overwrite and deletes hit; two keys share a hash.
    const keys = [...Array.from({ length: 300 }, (_, i) => `k${i}`), c1, c2];
    let map = PersistentMap.empty<string, number>();
    const reference = new Map<string, number>();
    const versions: { map: PersistentMap<string, number>; entries: [string, number][] }[] = [];
    for (let step = 0; step < 5_000; step += 1) {
      const key = keys[Math.floor(rand() * keys.length)] as string;
      if (rand() < 0.35) {
        map = map.delete(key);
        reference.delete(key);
      } else {
        const value = Math.floor(rand() * 10);
        map = map.set(key, value);
        reference.set(key, value);
      }
      if (step % 250 === 0) versions.push({ map, entries: asSortedEntries(reference) });
      expect(map.size).toBe(reference.size);
      expect(map.get(key)).toBe(reference.get(key));
      expect(map.has(key)).toBe(reference.has(key));
    }
    expect(asSortedEntries(map)).toEqual(asSortedEntries(reference));
    expect([...map.keys()].length).toBe(reference.size);
    for (const version of versions) expect(asSortedEntries(version.map)).toEqual(version.entries);
  });

  it('keeps colliding keys apart and removes them one by one', () => {
    const [a, b] = collidingPair();
    expect(a).not.toBe(b);
    expect(fnv(a)).toBe(fnv(b));
    const both = PersistentMap.empty<string, number>().set(a, 1).set(b, 2).set('other', 3);
    expect([both.get(a), both.get(b), both.get('other'), both.size]).toEqual([1, 2, 3, 3]);
    const one = both.delete(a);
    expect([one.get(a), one.get(b), one.size]).toEqual([undefined, 2, 2]);
    expect(one.delete(b).delete('other').size).toBe(0);
  });

  it('returns itself for a set that changes nothing and a delete of an absent key', () => {
    const map = PersistentMap.from<string, number>([
      ['a', 1],
      ['b', 2],
    ]);
    expect(map.set('a', 1)).toBe(map);
    expect(map.delete('zzz')).toBe(map);
    let seen = 0;
    map.forEach((value, key, self) => {
      seen += value;
      expect(self.get(key)).toBe(value);
    });
    expect(seen).toBe(3);
  });
});

describe('wake queue', () => {
  it('pops entries earliest first, and an older queue still holds what it held', () => {
    const rand = mulberry32(5);
    let queue: WakeQueue | undefined;
    const ats: number[] = [];
    for (let i = 0; i < 500; i += 1) {
      const at = Math.floor(rand() * 1_000);
      ats.push(at);
      queue = pushWake(queue, at, `claude:${i}`);
    }
    const before = queue;
    const popped: number[] = [];
    while (queue) {
      popped.push(queue.at);
      queue = popWake(queue);
    }
    expect(popped).toEqual([...ats].sort((x, y) => x - y));
    expect(before?.at).toBe(popped[0]);
  });

  it('is built at once from many entries as pushing them one by one builds it: the same pops, and pushes after', () => {
    const rand = mulberry32(9);
    const entries = Array.from({ length: 400 }, (_, i) => ({ at: Math.floor(rand() * 200), key: `codex:${i}` as const }));
    let bulk = wakeQueueOf(entries);
    let pushed: WakeQueue | undefined;
    for (const { at, key } of entries) pushed = pushWake(pushed, at, key);
    const drain = (queue: WakeQueue | undefined, extra: readonly { at: number; key: `pi:${string}` }[]): number[] => {
      const out: number[] = [];
      for (let i = 0; queue; i += 1) {
        out.push(queue.at);
        queue = popWake(queue);
        const more = extra[i];
        if (more) queue = pushWake(queue, more.at, more.key);
      }
      return out;
    };
    const later = Array.from({ length: 100 }, (_, i) => ({ at: 50 + Math.floor(rand() * 300), key: `pi:${i}` as const }));
    expect(drain(bulk, later)).toEqual(drain(pushed, later));
    // Ties keep the order they were given in.
    bulk = wakeQueueOf([{ at: 5, key: 'amp:1' }, { at: 3, key: 'amp:2' }, { at: 5, key: 'amp:3' }]);
    const keys: string[] = [];
    for (let q = bulk; q; q = popWake(q)) keys.push(q.key);
    expect(keys).toEqual(['amp:2', 'amp:1', 'amp:3']);
    expect(wakeQueueOf([])).toBeUndefined();
  });
});
