import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Logger } from '../../core/contracts.js';
import { TABLE_COLUMNS } from './cache-db.js';
import type { DirListingCache } from './walk.js';

// A listing's names joined by '/', which no file name holds: cheaper to split than JSON to parse.
const NAME_SEPARATOR = '/';
const joinNames = (names: readonly string[]): string => names.join(NAME_SEPARATOR);
const splitNames = (text: string): string[] => (text === '' ? [] : text.split(NAME_SEPARATOR));

/** A remembered listing as read: its names are split when first asked for. */
interface ListingRow {
  readonly identity: string;
  readonly files: string;
  readonly subdirs: string;
}

/** The `dirs` table, and what to write to it at the cache's next transaction. */
export interface DirListings extends DirListingCache {
  /**
   * Forgets the listings of directories under `root` (itself included) nothing asked for since the
   * cache opened: after a walk of `root`, those of directories deleted meanwhile.
   */
  readonly forgetUnaskedListings: (root: string) => void;
  /** True when something waits to be written. */
  readonly pending: () => boolean;
  /** Writes what waits; inside the caller's transaction. */
  readonly flush: () => void;
}

/**
 * Directory listings: every row at open (one per directory a walk visits), each asked for once
 * per walk; what to write waits for the next transaction, as for side files.
 */
export const openDirListings = (db: Database.Database, log?: Logger): DirListings => {
  const listings = new Map<string, ListingRow>();
  const askedListings = new Set<string>();
  const pendingListings = new Map<string, (ListingRow & { readonly path: string }) | undefined>();
  try {
    for (const [p, identity, files, subdirs] of db.prepare(`SELECT ${TABLE_COLUMNS.dirs} FROM dirs`).raw().iterate() as Iterable<[string, string, string, string]>) {
      listings.set(p, { identity, files, subdirs });
    }
  } catch (error) {
    log?.warn(`discovery cache read failed: ${(error as Error).message}`);
  }
  const upsertListing = db.prepare(
    `INSERT INTO dirs (${TABLE_COLUMNS.dirs}) VALUES (?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET identity = excluded.identity, files = excluded.files, subdirs = excluded.subdirs`,
  );
  const removeListing = db.prepare('DELETE FROM dirs WHERE path = ?');
  return {
    pending: () => pendingListings.size > 0,
    flush: () => {
      for (const [p, row] of pendingListings) {
        if (row === undefined) removeListing.run(p);
        else upsertListing.run(p, row.identity, row.files, row.subdirs);
      }
      pendingListings.clear();
    },
    listing: (dir, identity) => {
      askedListings.add(dir);
      const found = listings.get(dir);
      if (found === undefined || found.identity !== identity) return undefined;
      return { files: splitNames(found.files), dirs: splitNames(found.subdirs) };
    },
    rememberListing: (dir, identity, listing) => {
      askedListings.add(dir);
      if (listing === undefined) {
        if (listings.delete(dir)) pendingListings.set(dir, undefined);
        return;
      }
      const row = { path: dir, identity, files: joinNames(listing.files), subdirs: joinNames(listing.dirs) };
      listings.set(dir, row);
      pendingListings.set(dir, row);
    },
    forgetUnaskedListings: (root) => {
      const prefix = root.endsWith(path.sep) ? root : root + path.sep;
      for (const p of listings.keys()) {
        if (askedListings.has(p) || (p !== root && !p.startsWith(prefix))) continue;
        listings.delete(p);
        pendingListings.set(p, undefined);
      }
    },
  };
};
