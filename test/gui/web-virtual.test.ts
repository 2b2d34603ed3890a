import { describe, expect, it } from 'vitest';
import { cardWindow, columnsFor, revealScroll } from '../../web/src/lib/virtual.js';

/** The card grid's window (web/src/lib/virtual.ts): which cards are built for a scroll position. */
describe('the card window', () => {
  it('counts the columns auto-fill makes', () => {
    expect(columnsFor(0, 300, 10)).toBe(1);
    expect(columnsFor(609, 300, 10)).toBe(1);
    expect(columnsFor(610, 300, 10)).toBe(2);
    expect(columnsFor(1248, 300, 10)).toBe(4);
  });

  it('builds the rows on screen and a margin, never more, at any count', () => {
    const at = (viewTop: number, count = 10_000) => cardWindow({ count, columns: 4, pitch: 100, viewTop, viewHeight: 800, marginRows: 3 });
    expect(at(0)).toEqual({ start: 0, end: 44, offset: 0, height: 250_000 });
    expect(at(50_000)).toEqual({ start: 1_988, end: 2_044, offset: 49_700, height: 250_000 });
    // The bottom: the last card is built.
    expect(at(250_000 - 800)).toMatchObject({ end: 10_000 });
    expect(at(250_000 - 800).end - at(250_000 - 800).start).toBeLessThanOrEqual(4 * 12);
    // A short listing: every card.
    expect(at(0, 5)).toEqual({ start: 0, end: 5, offset: 0, height: 200 });
    expect(at(0, 0)).toEqual({ start: 0, end: 0, offset: 0, height: 0 });
  });

  it('scrolls as little as needed to show a card whole', () => {
    const geometry = { columns: 2, pitch: 110, gap: 10, gridTop: 50 };
    expect(revealScroll(0, geometry, 0, 500)).toBeUndefined();
    // Row 10 (cards 20, 21) spans 1150..1250: below the screen, brought up to its bottom.
    expect(revealScroll(21, geometry, 0, 500)).toBe(750);
    // Above the screen: brought down to its top.
    expect(revealScroll(2, geometry, 1_000, 500)).toBe(160);
  });
});
