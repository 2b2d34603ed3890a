/** Pure geometry of the floating limits dialog: it always fits inside the window. */

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

export const MIN_DIALOG: Size = { width: 320, height: 180 };
/** Space kept between the dialog and the window's edges. */
export const EDGE = 8;

const clamp = (value: number, low: number, high: number): number => Math.min(Math.max(value, low), Math.max(low, high));

/**
 * The rect as shown in a viewport: never larger than the viewport (less the edge), never smaller
 * than the minimum unless the viewport is, and moved back inside.
 */
export const fitInside = (rect: Rect, viewport: Size): Rect => {
  const maxWidth = Math.max(0, viewport.width - 2 * EDGE);
  const maxHeight = Math.max(0, viewport.height - 2 * EDGE);
  const width = clamp(rect.width, Math.min(MIN_DIALOG.width, maxWidth), maxWidth);
  const height = clamp(rect.height, Math.min(MIN_DIALOG.height, maxHeight), maxHeight);
  return {
    width,
    height,
    x: clamp(rect.x, EDGE, viewport.width - EDGE - width),
    y: clamp(rect.y, EDGE, viewport.height - EDGE - height),
  };
};

/** Where a dialog opens: top right, below the header, `size` when it fits. */
export const initialRect = (viewport: Size, size: Size = { width: 560, height: 460 }, top = 56): Rect =>
  fitInside({ x: viewport.width - size.width - 24, y: top, ...size }, viewport);

/** A drag by (dx, dy) from `start`: the new position, kept inside. */
export const dragTo = (start: Rect, dx: number, dy: number, viewport: Size): Rect => fitInside({ ...start, x: start.x + dx, y: start.y + dy }, viewport);

/** A resize from the bottom-right grip by (dx, dy): the new size, kept inside (position unchanged when it fits). */
export const resizeBy = (start: Rect, dx: number, dy: number, viewport: Size): Rect => {
  const width = Math.min(Math.max(MIN_DIALOG.width, start.width + dx), viewport.width - EDGE - start.x);
  const height = Math.min(Math.max(MIN_DIALOG.height, start.height + dy), viewport.height - EDGE - start.y);
  return fitInside({ ...start, width, height }, viewport);
};

/**
 * The detail panel's width while dragging its edge: within `range` (the server's bounds of
 * `detail_width`) and never wider than the window allows; before the bounds are read, as it is.
 */
export const detailWidth = (wanted: number, viewportWidth: number, range: { readonly min: number; readonly max: number } | undefined): number =>
  range === undefined ? wanted : Math.round(clamp(wanted, range.min, Math.min(range.max, Math.max(range.min, viewportWidth - 240))));
