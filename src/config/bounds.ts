import { configSchema } from './schema.js';
import { metaOf, rangeOf, ruleOf } from './rules.js';

/**
 * The ranges of the whole-number keys, read from the schema, and the steps the +/- keys of the
 * TUI and the dashboard take within them. GET /api/config sends these to the dashboard, so it
 * holds no copy of its own.
 */

interface KeyBounds {
  readonly min: number;
  readonly max: number;
  /** The +/- keys: `step` at a time within `min..max` (a value outside, set in the file, only moves inwards). */
  readonly stepper?: { readonly min: number; readonly max: number; readonly step: number };
}

const NUMBER_KEYS = ['window_minutes', 'notify_after_sec', 'waiting_timeout_minutes', 'detail_width'] as const;
type NumberKey = (typeof NUMBER_KEYS)[number];

export type ConfigBounds = Readonly<Record<NumberKey, KeyBounds>>;

const boundsOf = (key: NumberKey): KeyBounds => {
  const setting = configSchema.shape[key];
  const range = rangeOf(ruleOf(setting));
  if (range === undefined) throw new Error(`${key} has no range in the config schema`);
  const { stepper } = metaOf(setting);
  return stepper === undefined ? range : { ...range, stepper };
};

export const CONFIG_BOUNDS: ConfigBounds = Object.freeze(Object.fromEntries(NUMBER_KEYS.map((key) => [key, boundsOf(key)])) as Record<NumberKey, KeyBounds>);

/** The window the TUI and the dashboard step within, and the range `--window` and the file take. */
export const WINDOW_BOUNDS = CONFIG_BOUNDS.window_minutes;
