import meow from 'meow';
import { UsageError } from '../core/io.js';
import { closest } from '../util/closest.js';

/**
 * One flag of a command. `choices` and number ranges are checked here so every command reports
 * bad values the same way: one line, exit 2. A number flag always has a range: what is out of it
 * would only fail later, further from the flag (SQLite's "datatype mismatch" for `--limit 1e300`).
 * `requires`: the flag only means something beside one of these boolean flags (`--host` with
 * `--api` or `--gui`); given without any of them it is a usage error, not silently ignored.
 */
export type FlagSpec = (
  | {
      readonly type: 'boolean';
      readonly shortFlag?: string;
      /** true: the flag is on unless `--no-<name>` is given, its only spelling (`--<name>` would change nothing). */
      readonly default?: boolean;
    }
  | { readonly type: 'string'; readonly choices?: readonly string[]; readonly shortFlag?: string }
  | { readonly type: 'number'; readonly integer?: boolean; readonly min: number; readonly max: number; readonly shortFlag?: string }
) & { readonly requires?: readonly string[] };

// Plain decimal only: no exponent (1e3), hex (0x10), sign or leading zero (010, read as octal elsewhere).
const WHOLE_NUMBER = /^(0|[1-9][0-9]*)$/;
const DECIMAL_NUMBER = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

type FlagValue<S extends FlagSpec> = S extends { type: 'boolean' } ? boolean : S extends { type: 'number' } ? number | undefined : string | undefined;

export type ParsedFlags<S extends FlagSpecs> = { -readonly [K in keyof S]: FlagValue<S[K]> };

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Flag tokens of argv (before `--`), without dashes or `=value`. */
const flagTokens = (argv: readonly string[]): string[] => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).filter((token) => token.startsWith('-') && token !== '-');
};

/** How a flag is written on the command line: `--name`, or `--no-name` for a boolean that is on by default. */
const spellingOf = (name: string, spec: FlagSpec): string => (spec.type === 'boolean' && spec.default === true ? `no-${kebab(name)}` : kebab(name));

/**
 * Besides its own flags, every command answers `--help` (the bare `agentwatch` also `--version`)
 * before its flags are parsed (cli.ts): a typo of those is suggested too.
 */
const answeredFirst = (command: string): string[] => (command === 'agentwatch' ? ['help', 'version'] : ['help']);

/** Why an unknown flag is unknown, when a documented form is near: ` (did you mean --agent?)`, or "" . */
const unknownFlagHint = (bare: string, known: ReadonlyMap<string, { spec: FlagSpec }>, command: string): string => {
  // The other spelling of a documented boolean: said as such, not as a typo.
  const positive = bare.startsWith('no-') ? known.get(bare.slice(3)) : undefined;
  if (positive?.spec.type === 'boolean') return ` (--${bare.slice(3)} is off unless given)`;
  if (known.has(`no-${bare}`)) return ` (--${bare} is the default; --no-${bare} turns it off)`;
  const guess = closest(bare, [...[...known.keys()].filter((name) => name.length > 1), ...answeredFirst(command)]);
  return guess ? ` (did you mean --${guess}?)` : '';
};

/**
 * Parse `argv` against `specs` with meow, rejecting unknown flags, missing values, repeated
 * values and bad choices with a UsageError (exit 2). Only the documented forms are flags: a
 * boolean is `--name`, or `--no-name` when it is on by default; `--no-name` of any other flag and
 * `--name` of one on by default are unknown (meow itself would take both). `combinations: false`
 * skips the `requires` check (`--help` beside `--host` still answers).
 */
export const parseFlags = <S extends FlagSpecs>(
  argv: readonly string[],
  specs: S,
  command: string,
  options: { readonly combinations?: boolean } = {},
): { flags: ParsedFlags<S>; input: string[] } => {
  const known = new Map<string, { name: string; spec: FlagSpec }>();
  for (const [name, spec] of Object.entries(specs)) {
    known.set(spellingOf(name, spec), { name, spec });
    if (spec.shortFlag && !(spec.type === 'boolean' && spec.default === true)) known.set(spec.shortFlag, { name, spec });
  }
  const tokens = flagTokens(argv);
  for (const token of tokens) {
    // A negative number after a value flag is that flag's value (checked below), not a flag.
    const previous = argv[argv.indexOf(token) - 1];
    const valueOf = previous?.startsWith('-') && !previous.includes('=') ? known.get(previous.replace(/^--?/, '')) : undefined;
    if (valueOf && valueOf.spec.type !== 'boolean' && !Number.isNaN(Number(token))) continue;
    const [bare = '', ...assigned] = token.replace(/^--?/, '').split('=');
    const entry = known.get(bare);
    if (!entry) throw new UsageError(`Unknown flag ${token.split('=')[0]} for ${command}${unknownFlagHint(bare, known, command)}`, `Run ${command} --help`);
    if (token.startsWith('-') && !token.startsWith('--') && bare.length > 1) {
      throw new UsageError(`Unknown flag ${token} for ${command}`, `Run ${command} --help`);
    }
    // meow would read `--json=yes` as false and `--json=1` as unset: a silently ignored switch.
    if (entry.spec.type === 'boolean' && assigned.length > 0) {
      throw new UsageError(`Flag --${bare} does not take a value (got ${JSON.stringify(assigned.join('='))})`, `Run ${command} --help`);
    }
  }
  // Value-taking flags must be followed by a value (meow would silently read "" or the next flag).
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

  const meowFlags = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      {
        type: spec.type === 'number' ? 'string' : spec.type,
        ...(spec.shortFlag ? { shortFlag: spec.shortFlag } : {}),
        ...(spec.type === 'boolean' && spec.default !== undefined ? { default: spec.default } : {}),
      },
    ]),
  ) as Record<string, { type: 'boolean' | 'string' }>;
  let cli: ReturnType<typeof meow>;
  try {
    cli = meow({
      argv: [...argv],
      importMeta: import.meta,
      pkg: { name: 'agentwatch' },
      autoHelp: false,
      autoVersion: false,
      allowUnknownFlags: true,
      flags: meowFlags,
    });
  } catch (error) {
    // meow throws plain Errors for some misuse (a value flag given twice): same one-line contract.
    const message = (error as Error).message.replace(/^The flag (--\S+) can only be set once\.?$/, 'Flag $1 was given more than once');
    throw new UsageError(message, `Run ${command} --help`);
  }

  const flags: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value: unknown = (cli.flags as Record<string, unknown>)[name];
    const flagName = `--${kebab(name)}`;
    if (Array.isArray(value)) throw new UsageError(`Flag ${flagName} was given more than once`, `Run ${command} --help`);
    if (spec.type === 'boolean') {
      flags[name] = value === undefined ? (spec.default ?? false) : value === true;
    } else if (value === undefined) {
      flags[name] = undefined;
    } else if (spec.type === 'string') {
      const text = String(value);
      if (spec.choices && !spec.choices.includes(text)) {
        throw new UsageError(`Invalid value for ${flagName}: ${JSON.stringify(text)} (expected one of ${spec.choices.join(', ')})`, `Run ${command} --help`);
      }
      flags[name] = text;
    } else {
      const text = String(value);
      const number = Number(text);
      if (!(spec.integer ? WHOLE_NUMBER : DECIMAL_NUMBER).test(text) || number < spec.min || number > spec.max) {
        const what = `${spec.integer ? 'a whole number' : 'a number'} from ${spec.min} to ${spec.max}`;
        throw new UsageError(`Invalid value for ${flagName}: ${JSON.stringify(text)} (expected ${what})`, `Run ${command} --help`);
      }
      flags[name] = number;
    }
  }
  if (options.combinations !== false) {
    for (const [name, spec] of Object.entries(specs)) {
      const given = spec.type === 'boolean' ? flags[name] !== (spec.default ?? false) : flags[name] !== undefined;
      if (!given || !spec.requires || spec.requires.some((other) => flags[other] === true)) continue;
      throw new UsageError(`--${spellingOf(name, spec)} goes with ${spec.requires.map((other) => `--${kebab(other)}`).join(' or ')}`, `Run ${command} --help`);
    }
  }
  return { flags: flags as ParsedFlags<S>, input: cli.input };
};
