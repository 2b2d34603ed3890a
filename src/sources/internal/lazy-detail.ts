import type { SessionState } from '../../core/session.js';
import { parseJson } from './skim.js';
import { sessionDetailSchema } from './state-schema.js';

/** The part of a state the discovery cache stores apart and a warm start reads only on demand. */
type Detail = Pick<SessionState, 'usageByMessage' | 'recentTools' | 'recentMessages'>;
/** The rest: what listing a session and deriving its activity need. */
export type Core = Omit<SessionState, keyof Detail>;

const EMPTY_DETAIL: Detail = { usageByMessage: {}, recentTools: [], recentMessages: [] };

/** Where a restored state's detail is until first read, then the parsed detail. */
interface Slot {
  load: (() => unknown) | undefined;
  parsed: Detail | undefined;
  /** Who restored the state (the discovery cache that handed it out), as `restoredBy` tells. */
  readonly owner: unknown;
  /** What the owner knows the stored detail by (the cache's row), for a read of many at once. */
  readonly key: string | undefined;
}

const SLOT = Symbol('detail');
type Lazy = SessionState & { readonly [SLOT]: Slot };

const read = (state: Lazy): Detail => {
  const slot = state[SLOT];
  if (slot.parsed === undefined) {
    const detail = slot.load?.();
    const result = sessionDetailSchema.safeParse(Buffer.isBuffer(detail) ? parseJson(detail.toString('utf8')) : undefined);
    slot.parsed = result.success ? result.data : EMPTY_DETAIL;
    slot.load = undefined;
  }
  return slot.parsed;
};

// NOTE: the same getter functions for every restored state. Getters made per state (an object
// literal's `get x()` in a closure) gave each of 10,000 restored states its own V8 hidden class
// and descriptor array (docs/performance.md).
const ACCESSORS: PropertyDescriptorMap = {
  usageByMessage: {
    enumerable: true,
    configurable: true,
    get(this: Lazy) {
      return read(this).usageByMessage;
    },
  },
  recentTools: {
    enumerable: true,
    configurable: true,
    get(this: Lazy) {
      return read(this).recentTools;
    },
  },
  recentMessages: {
    enumerable: true,
    configurable: true,
    get(this: Lazy) {
      return read(this).recentMessages;
    },
  },
};

/**
 * A restored state whose detail fields load and parse the stored detail on first read (a spread,
 * the fold's draft, the detail view). A detail that is gone or does not validate reads as empty:
 * its core did validate, and recent tools and messages are history, not what the session's
 * totals or activity rest on. A spread copies the fields, never the hidden slot.
 *
 * Takes `core` over (a freshly parsed object nobody else holds) and returns it completed.
 * NOTE: built on the parsed object itself, not on a copy: properties added to the copy a spread
 * makes gave every restored state its own V8 hidden class.
 */
export const lazyState = (core: Core, load: () => unknown, owner?: unknown, key?: string): SessionState => {
  Object.defineProperty(core, SLOT, { value: { load, parsed: undefined, owner, key } satisfies Slot });
  return Object.defineProperties(core, ACCESSORS) as SessionState;
};

/** The `owner` a lazy state was made with; undefined for any other state (a spread of one included). */
export const restoredBy = (state: SessionState): unknown => (state as Partial<Lazy>)[SLOT]?.owner;

/** The key of a state `owner` restored whose detail nothing has read yet; undefined for any other state. */
export const unreadDetailKey = (state: SessionState, owner: unknown): string | undefined => {
  const slot = (state as Partial<Lazy>)[SLOT];
  return slot !== undefined && slot.owner === owner && slot.parsed === undefined ? slot.key : undefined;
};
