/**
 * The card grid's window onto the listing: which cards are in the page for a scroll position.
 * Only the rows on screen and a margin of rows around them are built, so the page's size follows
 * the window, not the number of sessions. Pure (unit-tested); CardGrid.svelte measures and applies.
 */

/** Columns of `repeat(auto-fill, minmax(minColumn, 1fr))` with `gap` in a `width` wide grid. */
export const columnsFor = (width: number, minColumn: number, gap: number): number => Math.max(1, Math.floor((width + gap) / (minColumn + gap)));

export interface WindowInput {
  /** Cards in the listing. */
  readonly count: number;
  readonly columns: number;
  /** One row's height plus the gap under it. */
  readonly pitch: number;
  /** The scroll position relative to the grid's top (negative while the grid starts below the top). */
  readonly viewTop: number;
  readonly viewHeight: number;
  /** Rows built above and below the screen. */
  readonly marginRows: number;
}

export interface CardWindow {
  /** The first and one past the last card in the page. */
  readonly start: number;
  readonly end: number;
  /** Where the first built row sits, from the grid's top. */
  readonly offset: number;
  /** The grid's full height, as if every card were built. */
  readonly height: number;
}

export const cardWindow = ({ count, columns, pitch, viewTop, viewHeight, marginRows }: WindowInput): CardWindow => {
  const rows = Math.ceil(count / columns);
  const height = rows * pitch;
  if (rows === 0 || pitch <= 0) return { start: 0, end: count, offset: 0, height };
  const firstRow = Math.min(rows - 1, Math.max(0, Math.floor(viewTop / pitch) - marginRows));
  const lastRow = Math.min(rows, Math.max(firstRow + 1, Math.ceil((viewTop + viewHeight) / pitch) + marginRows));
  return { start: firstRow * columns, end: Math.min(count, lastRow * columns), offset: firstRow * pitch, height };
};

/**
 * The scroll position that shows card `index` whole, moving as little as possible (`block:
 * 'nearest'`); `undefined` when it is already on screen. `gridTop` is the grid's top in the
 * scroller's content.
 */
export const revealScroll = (index: number, geometry: { readonly columns: number; readonly pitch: number; readonly gap: number; readonly gridTop: number }, scrollTop: number, viewHeight: number): number | undefined => {
  const top = geometry.gridTop + Math.floor(index / geometry.columns) * geometry.pitch;
  const bottom = top + geometry.pitch - geometry.gap;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewHeight) return Math.max(0, bottom - viewHeight);
  return undefined;
};
