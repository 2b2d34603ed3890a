import { keyPath } from '../../src/config/key-path.js';
import { chance, damageJsonText, deeplyNestedJson, hostileString, randomJson } from './input-helpers.js';
import { pick, randInt, type Rng } from './prng.js';

/**
 * Damaged config files for the load fuzz test: a valid document (some keys, the user's own among
 * them) broken one way, with what the damage implies for the answer: where a JSON error must be
 * placed, which key an invalid-value message must name, which number a rewrite must keep.
 */

export const PASSPHRASE = 'the passphrase of the fuzzed config';

export interface ConfigCase {
  readonly text: string;
  readonly how: string;
  /** Offsets between which a JSON error must be reported, when the damage says. */
  readonly errorFrom?: number;
  readonly errorTo?: number;
  /** The key paths an invalid-configuration message may name (the mutated key and its parents). */
  readonly keyPaths?: readonly string[];
  /** A number JSON.stringify would write differently: a load that rewrites the file must keep this text. */
  readonly keepLiteral?: string;
}

const VALID_FIELDS: Readonly<Record<string, (rng: Rng) => unknown>> = {
  window_minutes: (rng) => randInt(rng, 1, 10_080),
  default_filter: (rng) => pick(rng, ['', 'active', 'waiting', 'idle']),
  editor: (rng) => pick(rng, ['', 'vim', 'code --wait']),
  launch_at_login: (rng) => chance(rng, 0.5),
  notifications: (rng) => chance(rng, 0.5),
  notify_after_sec: (rng) => randInt(rng, 1, 600),
  agents: (rng) => ({ claude: chance(rng, 0.5), codex: true, my_agent: 'kept' }),
  claude_dirs: (rng) => (chance(rng, 0.5) ? [] : ['/srv/claude', '~/other']),
  exclude_cwd_substrings: () => ['tmp'],
  api_passphrase: () => PASSPHRASE,
  api_salt: () => 'salt-of-the-fuzzed-config',
  tui: (rng) => ({ theme: pick(rng, ['auto', 'dark', 'light']) }),
  card_density: (rng) => pick(rng, ['compact', 'rich', 'live']),
  terminal: (rng) => pick(rng, ['terminal', 'kitty']),
  detail_width: (rng) => randInt(rng, 300, 2000),
  webhooks: (rng) => (chance(rng, 0.5) ? [] : [{ name: 'ci', url: 'http://127.0.0.1:9/hook', secret: 'hook secret', events: ['waiting'], agents: ['claude'], enabled: true, note: 'mine' }]),
  my_own_key: () => ({ kept: true, list: [1, 'two', null] }),
};

/** Numbers a double cannot hold as written (a rewrite would change them), and numbers it holds exactly in another spelling. */
const LOSSY_NUMBERS = ['12345678901234567890', '1e999', '-1e999', '3.14159265358979323846', '9007199254740993', '1e-400'] as const;
const EXACT_NUMBERS = ['0.1', '1.0', '1E3', '-0', '2.5e-3', '9007199254740992'] as const;

/** A valid config document: some of the keys (a back-fill adds the rest), the passphrase always. */
const validConfig = (rng: Rng): Record<string, unknown> => {
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(VALID_FIELDS)) if (key === 'api_passphrase' || chance(rng, 0.7)) config[key] = value(rng);
  return config;
};

/** Wrong values: other types, nested arrays, numbers out of range, text that reads like a number. */
const wrongValue = (rng: Rng): unknown =>
  pick(rng, [() => randomJson(rng, 2), () => [[[]]], () => 'NaN', () => '30', () => -1, () => 2.5, () => 1e308, () => null, () => ({}), () => hostileString(rng)])();

/** A path to mutate: a top-level key (known, a typo, anything), a key inside agents/tui, a webhook field. */
const pathIn = (rng: Rng, document: Record<string, unknown>): (string | number)[] => {
  const key = pick(rng, [...Object.keys(VALID_FIELDS), 'window_minuts', hostileString(rng)]);
  const inner = document[key];
  if (key === 'webhooks' && Array.isArray(inner) && inner.length > 0 && chance(rng, 0.7)) return [key, 0, pick(rng, ['name', 'url', 'secret', 'events', 'agents', 'enabled', 'signature', 'extra'])];
  if ((key === 'agents' || key === 'tui') && typeof inner === 'object' && inner !== null && chance(rng, 0.6)) return [key, pick(rng, ['claude', 'theme', 'pi', 'x'])];
  return [key];
};

const setAt = (document: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void => {
  let node: unknown = document;
  for (const part of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[part];
  (node as Record<string | number, unknown>)[path.at(-1) as string | number] = value;
};

export const makeConfigCase = (rng: Rng): ConfigCase => {
  const document = validConfig(rng);
  const kind = rng();
  if (kind < 0.45) return damageJsonText(rng, JSON.stringify(document, null, chance(rng, 0.8) ? 2 : 0));
  if (kind < 0.82) {
    const where = pathIn(rng, document);
    setAt(document, where, wrongValue(rng));
    return { text: JSON.stringify(document, null, 2), how: `${keyPath(where)} set to a wrong value`, keyPaths: where.map((_, i) => keyPath(where.slice(0, i + 1))) };
  }
  if (kind < 0.9) {
    const lossy = chance(rng, 0.5);
    const literal = lossy ? pick(rng, LOSSY_NUMBERS) : pick(rng, EXACT_NUMBERS);
    const text = JSON.stringify({ ...document, my_number: '@@' }, null, 2).replace('"@@"', literal);
    return { text, how: `the number ${literal} in a key of the user's own`, ...(lossy ? { keepLiteral: literal } : {}) };
  }
  if (kind < 0.95) {
    const text = JSON.stringify({ ...document, my_own_key: '@@' });
    return { text: text.replace('"@@"', deeplyNestedJson(rng, randInt(rng, 60, 20_000))), how: 'deeply nested value', keyPaths: ['my_own_key'] };
  }
  return { text: JSON.stringify(randomJson(rng, 3)), how: 'random JSON document' };
};
