/** Where each part of the screen goes for a terminal size. Pure. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Title bar, one bordered frame holding both panels, help bar. The panels share the frame's
 * borders: side by side they are split by a vertical rule, stacked by a horizontal one that
 * carries the detail panel's title.
 */
export interface Layout {
  /** Side by side on wide terminals, stacked (list above detail) on narrow ones. */
  readonly split: 'columns' | 'rows';
  readonly title: Rect;
  /** The frame around both panels, borders included. */
  readonly frame: Rect;
  /** Inside the borders: the list panel (status line, column headers, rows). */
  readonly list: Rect;
  /** Inside the borders: the detail panel. */
  readonly detail: Rect;
  readonly help: Rect;
}

/** Below this the panels cannot show a useful row: render a "too small" notice instead. */
export const MIN_SIZE: Size = { width: 40, height: 12 };
/** From this width the detail panel sits beside the list. */
const COLUMNS_FROM_WIDTH = 120;
/** Side by side, the detail panel gets this share of the width, within these bounds (inside its borders). */
const DETAIL_SHARE = 0.36;
const DETAIL_MIN = 44;
const DETAIL_MAX = 74;

export const isTooSmall = (size: Size): boolean => size.width < MIN_SIZE.width || size.height < MIN_SIZE.height;

export const computeLayout = (size: Size): Layout => {
  const { width, height } = size;
  const title: Rect = { x: 0, y: 0, width, height: 1 };
  const help: Rect = { x: 0, y: height - 1, width, height: 1 };
  const frame: Rect = { x: 0, y: 1, width, height: Math.max(0, height - 2) };
  const inside = Math.max(0, frame.height - 2);
  if (width >= COLUMNS_FROM_WIDTH) {
    const detailWidth = Math.min(DETAIL_MAX, Math.max(DETAIL_MIN, Math.floor(width * DETAIL_SHARE)));
    const listWidth = width - 3 - detailWidth;
    return {
      split: 'columns',
      title,
      frame,
      help,
      list: { x: 1, y: frame.y + 1, width: listWidth, height: inside },
      detail: { x: listWidth + 2, y: frame.y + 1, width: detailWidth, height: inside },
    };
  }
  // Stacked: one more rule (the detail's title) between the panels.
  const rows = Math.max(0, inside - 1);
  const listHeight = Math.max(Math.min(rows, 4), Math.ceil(rows / 2));
  return {
    split: 'rows',
    title,
    frame,
    help,
    list: { x: 1, y: frame.y + 1, width: width - 2, height: listHeight },
    detail: { x: 1, y: frame.y + 2 + listHeight, width: width - 2, height: Math.max(0, rows - listHeight) },
  };
};

/** The list panel's rows: an optional status line, the column headers, then one row per session. */
export interface ListBody {
  /** Screen row of the first session row. */
  readonly firstRowY: number;
  /** How many session rows fit. */
  readonly visible: number;
}

export const listBody = (layout: Layout, withStatus: boolean): ListBody => {
  const top = (withStatus ? 1 : 0) + 1;
  return { firstRowY: layout.list.y + top, visible: Math.max(0, layout.list.height - top) };
};

/** What a mouse position points at. `row` counts from the first visible session row. */
export type Hit =
  | { readonly area: 'list'; readonly row: number }
  | { readonly area: 'detail' }
  | { readonly area: 'modal' }
  | { readonly area: 'none' };

const inside = (rect: Rect, x: number, y: number): boolean => x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;

/** Pure hit test for 0-based cell coordinates; an open modal takes every position inside it. */
export const hitTest = (size: Size, withStatus: boolean, x: number, y: number, modal?: Rect): Hit => {
  if (isTooSmall(size)) return { area: 'none' };
  if (modal && inside(modal, x, y)) return { area: 'modal' };
  const layout = computeLayout(size);
  if (inside(layout.detail, x, y)) return { area: 'detail' };
  const body = listBody(layout, withStatus);
  if (inside(layout.list, x, y) && y >= body.firstRowY) return { area: 'list', row: y - body.firstRowY };
  return { area: 'none' };
};

/**
 * A modal box for content of `content` cells (borders and padding added), centered and kept
 * inside the screen with a margin: small content gets a small box, never blank rows.
 */
export const modalRect = (size: Size, content: Size): Rect => {
  const width = Math.max(20, Math.min(size.width - 4, content.width + 4));
  const height = Math.max(5, Math.min(size.height - 2, content.height));
  return { x: Math.max(0, Math.floor((size.width - width) / 2)), y: Math.max(0, Math.floor((size.height - height) / 2)), width, height };
};

/** The widest a modal can be at this size (what the limits report is rendered for). */
export const modalMaxContentWidth = (size: Size): number => Math.max(16, Math.min(size.width - 4, 104) - 4);
