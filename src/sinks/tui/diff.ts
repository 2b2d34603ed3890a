/**
 * Flicker-free redraws: compare the encoded rows of the previous frame with the next one and
 * write only the rows that changed. A missing previous frame (first draw, resize) redraws all.
 */
export interface RowChange {
  readonly row: number;
  readonly text: string;
}

export const diffFrames = (previous: readonly string[] | undefined, next: readonly string[]): RowChange[] => {
  const changes: RowChange[] = [];
  next.forEach((text, row) => {
    if (previous?.[row] !== text) changes.push({ row, text });
  });
  return changes;
};
