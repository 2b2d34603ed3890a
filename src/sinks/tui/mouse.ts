import type { Hit } from './layout.js';
import { isClick, WHEEL_ROWS, wheelOf, type KeyMode, type MousePress } from './keys.js';
import type { Action } from './state.js';

/**
 * Mouse -> action, pure: a click selects the row under it (or focuses the detail panel), the
 * wheel scrolls what is under the pointer. An open window takes the wheel; a click outside the
 * help overlay closes it. While a prompt is open the mouse does nothing.
 */
export const mouseToAction = (press: MousePress, mode: KeyMode, hit: Hit, listOffset: number): Action | undefined => {
  const wheel = wheelOf(press.name);
  const click = isClick(press.name);
  if (!click && wheel === 0) return undefined;
  switch (mode) {
    case 'prompt':
      return undefined;
    case 'help':
      if (wheel !== 0) return { type: 'scrollHelp', delta: wheel * WHEEL_ROWS };
      return hit.area === 'modal' ? undefined : { type: 'toggleHelp' };
    case 'limits':
      return wheel !== 0 ? { type: 'scrollLimits', delta: wheel * WHEEL_ROWS } : undefined;
    case 'normal':
      if (hit.area === 'list') return wheel !== 0 ? { type: 'scrollList', delta: wheel * WHEEL_ROWS } : { type: 'select', index: listOffset + hit.row };
      if (hit.area === 'detail') return wheel !== 0 ? { type: 'scrollDetail', delta: wheel * WHEEL_ROWS } : { type: 'focus', panel: 'detail' };
      return undefined;
  }
};
