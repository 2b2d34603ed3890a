import { stripVTControlCharacters } from 'node:util';
import { createColors } from 'picocolors';
import type { BarTone, PaceLabel, Severity } from './pace.js';

/** Color functions for the limits views; every one is the identity when color is off. */
export interface Palette {
  readonly bold: (text: string) => string;
  readonly muted: (text: string) => string;
  readonly severity: (severity: Severity, text: string) => string;
  readonly bar: (tone: BarTone, text: string) => string;
  readonly pace: (label: PaceLabel | null, text: string) => string;
}

export const makePalette = (enabled: boolean): Palette => {
  const c = createColors(enabled);
  // NOTE: picocolors has no orange; 256-color 208 is the closest widely supported one.
  const orange = (text: string): string => (enabled ? `\x1b[38;5;208m${text}\x1b[39m` : text);
  const tones: Record<BarTone, (text: string) => string> = { green: c.green, blue: c.blue, orange, red: c.red };
  return {
    bold: c.bold,
    muted: c.gray,
    severity: (severity, text) => (severity === 'danger' ? c.red(text) : severity === 'warn' ? orange(text) : severity === 'ok' ? c.green(text) : text),
    bar: (tone, text) => tones[tone](text),
    pace: (label, text) => (label === 'on track' ? c.green(text) : label === 'overutilizing' ? c.red(text) : c.gray(text)),
  };
};

/**
 * Color only on a TTY, unless NO_COLOR says never or FORCE_COLOR (not "0") says always
 * (FORCE_COLOR wins, as in most Node CLIs).
 */
export const shouldColor = (env: Readonly<Record<string, string | undefined>>, isTTY: boolean | undefined): boolean => {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force !== 'false') return true;
  if (force === '0' || force === 'false') return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY === true;
};

/** Printed width of a string that may contain color codes. */
export const visibleLength = (text: string): number => stripVTControlCharacters(text).length;

export const padVisible = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - visibleLength(text)));
