/**
 * A pointer drag from a handle (the limits dialog's title bar and grip, the detail panel's edge):
 * `onMove` gets the offset from the press until the pointer is released. Nothing on the page is
 * selected meanwhile: the press's default is prevented (no selection starts at the handle, even in
 * browsers where that alone does not stop one), selection starts are refused, and the whole page is
 * `user-select: none` (`data-dragging` on the root element, global.css) until the drag ends. Text
 * selection inside a dialog's body is untouched outside a drag.
 */
export const followDrag = (event: PointerEvent, onMove: (dx: number, dy: number) => void, onEnd?: () => void): void => {
  event.preventDefault();
  const handle = event.currentTarget as HTMLElement;
  handle.setPointerCapture(event.pointerId);
  const x0 = event.clientX;
  const y0 = event.clientY;
  const root = document.documentElement;
  root.dataset.dragging = '';
  const refuse = (e: Event): void => e.preventDefault();
  const move = (e: PointerEvent): void => onMove(e.clientX - x0, e.clientY - y0);
  const end = (): void => {
    delete root.dataset.dragging;
    document.removeEventListener('selectstart', refuse);
    handle.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    onEnd?.();
  };
  document.addEventListener('selectstart', refuse);
  handle.addEventListener('pointermove', move);
  // On the window: the release ends the drag even when the handle left the page meanwhile (Esc
  // closed the detail panel), so the page never stays unselectable.
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
};
