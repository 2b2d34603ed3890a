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

export interface Layout {
  /** Side by side on wide terminals, stacked (list above detail) on narrow ones. */
  readonly split: 'columns' | 'rows';
  readonly title: Rect;
  /** Each panel's first row is its heading. */
  readonly list: Rect;
  readonly detail: Rect;
  readonly help: Rect;
}

/** Below this the panels cannot show a useful row: render a "too small" notice instead. */
export const MIN_SIZE: Size = { width: 40, height: 10 };
/** From this width the detail panel sits beside the list. */
export const COLUMNS_FROM_WIDTH = 110;

export const isTooSmall = (size: Size): boolean => size.width < MIN_SIZE.width || size.height < MIN_SIZE.height;

export const computeLayout = (size: Size): Layout => {
  const { width, height } = size;
  const bodyTop = 1;
  const bodyHeight = Math.max(0, height - 2);
  const title: Rect = { x: 0, y: 0, width, height: 1 };
  const help: Rect = { x: 0, y: height - 1, width, height: 1 };
  if (width >= COLUMNS_FROM_WIDTH) {
    const listWidth = Math.floor(width * 0.5);
    return {
      split: 'columns',
      title,
      help,
      list: { x: 0, y: bodyTop, width: listWidth, height: bodyHeight },
      // One column between the panels is the divider.
      detail: { x: listWidth + 1, y: bodyTop, width: width - listWidth - 1, height: bodyHeight },
    };
  }
  const listHeight = Math.min(bodyHeight - 4, Math.max(4, Math.ceil(bodyHeight * 0.45)));
  return {
    split: 'rows',
    title,
    help,
    list: { x: 0, y: bodyTop, width, height: listHeight },
    detail: { x: 0, y: bodyTop + listHeight, width, height: bodyHeight - listHeight },
  };
};

/** The limits modal: centered, leaving a margin of the panels visible around it. */
export const modalRect = (size: Size): Rect => {
  const width = Math.min(size.width - 4, 100);
  const height = Math.min(size.height - 2, 28);
  return { x: Math.floor((size.width - width) / 2), y: Math.floor((size.height - height) / 2), width, height };
};
