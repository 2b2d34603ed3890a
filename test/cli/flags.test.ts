import { describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/flags.js';
import { UsageError } from '../../src/cli/io.js';

const specs = {
  agent: { type: 'string', choices: ['claude', 'codex', 'all'] },
  detailed: { type: 'boolean' },
  window: { type: 'number', integer: true, min: 1 },
  dir: { type: 'string' },
  open: { type: 'boolean', default: true },
} as const;

const parse = (argv: string[]) => parseFlags(argv, specs, 'agentwatch test');
const usage = (argv: string[]): string => {
  try {
    parse(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('parseFlags', () => {
  it('parses booleans, strings, numbers and positional input', () => {
    const { flags, input } = parse(['--agent', 'codex', '--detailed', '--window=15', 'extra', '--dir', '/tmp/x']);
    expect(flags).toEqual({ agent: 'codex', detailed: true, window: 15, dir: '/tmp/x', open: true });
    expect(input).toEqual(['extra']);
  });

  it('leaves absent flags undefined / false', () => {
    expect(parse([]).flags).toEqual({ agent: undefined, detailed: false, window: undefined, dir: undefined, open: true });
  });

  it('turns a default-on boolean off with --no-<name>', () => {
    expect(parse([]).flags.open).toBe(true);
    expect(parse(['--no-open']).flags.open).toBe(false);
  });

  it('does not accept --no- on a value flag', () => {
    expect(usage(['--no-agent'])).toBe('Unknown flag --no-agent for agentwatch test');
  });

  it('rejects unknown flags, long and short', () => {
    expect(usage(['--bogus'])).toBe('Unknown flag --bogus for agentwatch test');
    expect(usage(['-x'])).toBe('Unknown flag -x for agentwatch test');
    expect(usage(['--agent=all', '--verbose=3'])).toBe('Unknown flag --verbose for agentwatch test');
  });

  it('rejects a value outside the choices, naming them', () => {
    expect(usage(['--agent', 'gemini'])).toBe('Invalid value for --agent: "gemini" (expected one of claude, codex, all)');
  });

  it('rejects a missing value', () => {
    expect(usage(['--agent'])).toBe('Flag --agent needs a value');
    expect(usage(['--agent', '--detailed'])).toBe('Flag --agent needs a value');
  });

  it('rejects non-integer and too-small numbers', () => {
    expect(usage(['--window', 'ten'])).toBe('Invalid value for --window: "ten" (expected an integer >= 1)');
    expect(usage(['--window', '1.5'])).toMatch(/expected an integer/);
    expect(usage(['--window', '0'])).toMatch(/>= 1/);
  });

  it('rejects a repeated value flag', () => {
    expect(usage(['--agent', 'claude', '--agent', 'codex'])).toBe('Flag --agent was given more than once');
  });

  it('ignores everything after --', () => {
    expect(parse(['--', '--bogus']).input).toEqual(['--bogus']);
  });

  it('rejects a value attached to a boolean flag instead of silently ignoring it', () => {
    expect(usage(['--detailed=yes'])).toBe('Flag --detailed does not take a value (got "yes")');
    expect(usage(['--no-open=1'])).toBe('Flag --no-open does not take a value (got "1")');
  });

  it('reports a negative number after a value flag as a bad value, not as an unknown flag', () => {
    expect(usage(['--window', '-5'])).toBe('Invalid value for --window: "-5" (expected an integer >= 1)');
    expect(usage(['-5'])).toBe('Unknown flag -5 for agentwatch test');
  });
});
