/**
 * Page cache of each SQLite connection agentwatch keeps open, in KiB: SQLite's own default.
 * better-sqlite3 builds SQLite with 16 MiB per connection instead, and a long-running monitor
 * keeps several connections open (discovery cache, search index, SQLite agents' databases,
 * webhook log): measured at 10k sessions, 34 MiB of its idle RSS were the discovery cache's and the
 * search index's page caches, filled by the first discovery and never given back. The files
 * stay in the operating system's cache either way; a query that misses this one reads from there.
 */
export const PAGE_CACHE_KIB = 2_000;

/** Bounds the page cache of `db` (a negative cache_size is KiB, a positive one pages). */
export const boundPageCache = (db: { readonly pragma: (source: string) => unknown }): void => {
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
};
