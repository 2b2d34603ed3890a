import { UsageError } from './io.js';
import { closest } from '../util/closest.js';

/**
 * One flag of a command. `choices` and `integer` are checked here so every command reports bad
 * values the same way: one line, exit 2.
 */
export type FlagSpec =
  | { readonly type: 'boolean'; readonly shortFlag?: string; /** true: the flag is on unless `--no-<name>` is given. */ readonly default?: boolean }
  | { readonly type: 'string'; readonly choices?: readonly string[]; readonly shortFlag?: string }
  | { readonly type: 'number'; readonly integer?: boolean; readonly min?: number; readonly shortFlag?: string };

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

type FlagValue<S extends FlagSpec> = S extends { type: 'boolean' } ? boolean : S extends { type: 'number' } ? number | undefined : string | undefined;

export type ParsedFlags<S extends FlagSpecs> = { -readonly [K in keyof S]: FlagValue<S[K]> };

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Flag tokens of argv (before `--`), without dashes or `=value`. */
const flagTokens = (argv: readonly string[]): string[] => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).filter((token) => token.startsWith('-') && token !== '-');
};

/**
 * Pure: what `argv` (already checked by parseFlags: every flag token is known, every value flag
 * has its value) gives each flag, in order, and the positional input. `--no-<name>` turns a
 * boolean off; a value flag takes `=value` or the next token; everything after `--` is input.
 */
const readArgv = (
  argv: readonly string[],
  known: ReadonlyMap<string, { readonly name: string; readonly spec: FlagSpec }>,
): { values: Map<string, (string | boolean)[]>; input: string[] } => {
  const values = new Map<string, (string | boolean)[]>();
  const input: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] ?? '';
    if (token === '--') {
      input.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      input.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const bare = token.slice(token.startsWith('--') ? 2 : 1, eq === -1 ? undefined : eq);
    const negated = !known.has(bare) && bare.startsWith('no-');
    const entry = known.get(negated ? bare.slice(3) : bare);
    if (!entry) {
      input.push(token);
      continue;
    }
    const list = values.get(entry.name) ?? [];
    values.set(entry.name, list);
    if (entry.spec.type === 'boolean') list.push(!negated);
    else if (eq !== -1) list.push(token.slice(eq + 1));
    else {
      list.push(argv[i + 1] ?? '');
      i += 1;
    }
  }
  return { values, input };
};

/**
 * Parse `argv` against `specs`, rejecting unknown flags, missing values, repeated values and bad
 * choices with a UsageError (exit 2). Hand-written rather than a parser package: every command
 * starts here, and the monitor's API must listen within 200 ms of start (meow took ~20 ms to load).
 */
export const parseFlags = <S extends FlagSpecs>(
  argv: readonly string[],
  specs: S,
  command: string,
): { flags: ParsedFlags<S>; input: string[] } => {
  const known = new Map<string, { name: string; spec: FlagSpec }>();
  for (const [name, spec] of Object.entries(specs)) {
    known.set(kebab(name), { name, spec });
    if (spec.shortFlag) known.set(spec.shortFlag, { name, spec });
  }
  const tokens = flagTokens(argv);
  for (const token of tokens) {
    // A negative number after a value flag is that flag's value (checked below), not a flag.
    const previous = argv[argv.indexOf(token) - 1];
    const valueOf = previous?.startsWith('-') && !previous.includes('=') ? known.get(previous.replace(/^--?/, '')) : undefined;
    if (valueOf && valueOf.spec.type !== 'boolean' && !Number.isNaN(Number(token))) continue;
    const [bare = '', ...assigned] = token.replace(/^--?/, '').split('=');
    const entry = known.get(bare) ?? (bare.startsWith('no-') ? known.get(bare.slice(3)) : undefined);
    if (!entry || (bare.startsWith('no-') && !known.has(bare) && entry.spec.type !== 'boolean')) {
      const guess = closest(bare, [...known.keys()].filter((name) => name.length > 1));
      throw new UsageError(`Unknown flag ${token.split('=')[0]} for ${command}${guess ? ` (did you mean --${guess}?)` : ''}`, `Run ${command} --help`);
    }
    if (token.startsWith('-') && !token.startsWith('--') && bare.length > 1) {
      throw new UsageError(`Unknown flag ${token} for ${command}`, `Run ${command} --help`);
    }
    // `--json=yes` or `--json=1` is refused, never read as a silently ignored switch.
    if (entry.spec.type === 'boolean' && assigned.length > 0) {
      throw new UsageError(`Flag --${bare} does not take a value (got ${JSON.stringify(assigned.join('='))})`, `Run ${command} --help`);
    }
  }
  // Value-taking flags must be followed by a value (never "" or the next flag, read silently).
  argv.forEach((token, index) => {
    const bare = token.replace(/^--?/, '');
    const entry = token.startsWith('-') && !bare.includes('=') ? known.get(bare) : undefined;
    if (entry && entry.spec.type !== 'boolean') {
      const next = argv[index + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-' && Number.isNaN(Number(next)))) {
        throw new UsageError(`Flag --${kebab(entry.name)} needs a value`, `Run ${command} --help`);
      }
    }
  });

  const { values, input } = readArgv(argv, known);

  const flags: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const given = values.get(name) ?? [];
    const flagName = `--${kebab(name)}`;
    if (spec.type === 'boolean') {
      // The last one counts: `--no-open --open` is on.
      const last = given.at(-1);
      flags[name] = last === undefined ? (spec.default ?? false) : last === true;
      continue;
    }
    if (given.length > 1) throw new UsageError(`Flag ${flagName} was given more than once`, `Run ${command} --help`);
    const value = given[0];
    if (value === undefined) {
      flags[name] = undefined;
    } else if (spec.type === 'string') {
      const text = String(value);
      if (spec.choices && !spec.choices.includes(text)) {
        throw new UsageError(`Invalid value for ${flagName}: ${JSON.stringify(text)} (expected one of ${spec.choices.join(', ')})`, `Run ${command} --help`);
      }
      flags[name] = text;
    } else {
      const number = Number(value);
      const bad = String(value).trim() === '' || !Number.isFinite(number) || (spec.integer && !Number.isInteger(number)) || (spec.min !== undefined && number < spec.min);
      if (bad) {
        const what = `${spec.integer ? 'an integer' : 'a number'}${spec.min !== undefined ? ` >= ${spec.min}` : ''}`;
        throw new UsageError(`Invalid value for ${flagName}: ${JSON.stringify(String(value))} (expected ${what})`, `Run ${command} --help`);
      }
      flags[name] = number;
    }
  }
  return { flags: flags as ParsedFlags<S>, input };
};
