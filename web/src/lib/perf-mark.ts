/**
 * A mark on the browser's performance timeline that replaces the previous one of its name: a page
 * open all day holds one, not one per time it was set.
 */
export const markLatest = (name: string): void => {
  performance.clearMarks(name);
  performance.mark(name);
};
