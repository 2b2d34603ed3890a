/**
 * Page cache of each SQLite connection agentwatch keeps open, in KiB: SQLite's own default.
 * better-sqlite3 builds SQLite with 16 MiB per connection instead, and a long-running monitor
 * keeps several connections open (discovery cache, search index, SQLite agents' databases,
 * webhook log): the discovery cache's and the search index's page caches, filled by the first
 * discovery and never given back, were a large part of its idle RSS (docs/performance.md). The files
 * stay in the operating system's cache either way; a query that misses this one reads from there.
 */
export const PAGE_CACHE_KIB = 2_000;

/** Bounds the page cache of `db` (a negative cache_size is KiB, a positive one pages). */
export const boundPageCache = (db: { readonly pragma: (source: string) => unknown }): void => {
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
};

/**
 * Frees the pages `db`'s cache holds but no statement uses. SQLite's page cache for large pages
 * (the discovery cache uses 64 KiB) held far more than its cache_size after write transactions
 * (docs/performance.md).
 * For a connection that writes in bursts (a cold start, then every few seconds) and idles between.
 */
export const releasePageCache = (db: { readonly pragma: (source: string) => unknown }): void => {
  db.pragma('shrink_memory');
};
