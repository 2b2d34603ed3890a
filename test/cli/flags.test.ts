import { describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/commands/flags.js';
import { UsageError } from '../../src/core/io.js';

const specs = {
  agent: { type: 'string', choices: ['claude', 'codex', 'all'] },
  detailed: { type: 'boolean' },
  window: { type: 'number', integer: true, min: 1, max: 10_080 },
  timeout: { type: 'number', min: 1, max: 600 },
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
    expect(flags).toEqual({ agent: 'codex', detailed: true, window: 15, timeout: undefined, dir: '/tmp/x', open: true });
    expect(input).toEqual(['extra']);
  });

  it('leaves absent flags undefined / false', () => {
    expect(parse([]).flags).toEqual({ agent: undefined, detailed: false, window: undefined, timeout: undefined, dir: undefined, open: true });
  });

  it('turns a default-on boolean off with --no-<name>', () => {
    expect(parse([]).flags.open).toBe(true);
    expect(parse(['--no-open']).flags.open).toBe(false);
  });

  it('does not accept --no- on a value flag', () => {
    expect(usage(['--no-agent'])).toBe('Unknown flag --no-agent for agentwatch test');
  });

  it('takes only the documented form of a boolean: --name, or --no-name for one on by default', () => {
    expect(usage(['--no-detailed'])).toBe('Unknown flag --no-detailed for agentwatch test (--detailed is off unless given)');
    expect(usage(['--open'])).toBe('Unknown flag --open for agentwatch test (--open is the default; --no-open turns it off)');
    expect(usage(['--open=1'])).toBe('Unknown flag --open for agentwatch test (--open is the default; --no-open turns it off)');
    expect(parse(['--detailed', '--no-open']).flags).toMatchObject({ detailed: true, open: false });
  });

  it('suggests the nearest documented flag of the command, --help and (for agentwatch) --version included', () => {
    expect(usage(['--agnet', 'claude'])).toBe('Unknown flag --agnet for agentwatch test (did you mean --agent?)');
    expect(usage(['--no-opne'])).toBe('Unknown flag --no-opne for agentwatch test (did you mean --no-open?)');
    expect(usage(['--hlep'])).toBe('Unknown flag --hlep for agentwatch test (did you mean --help?)');
    expect(usage(['--verison'])).toBe('Unknown flag --verison for agentwatch test');
    expect(() => parseFlags(['--verison'], specs, 'agentwatch')).toThrow('Unknown flag --verison for agentwatch (did you mean --version?)');
  });

  it('a flag that goes with others is a usage error without any of them, unless combinations are not checked', () => {
    const modes = { api: { type: 'boolean' }, gui: { type: 'boolean' }, host: { type: 'string', requires: ['api', 'gui'] }, open: { type: 'boolean', default: true, requires: ['gui'] } } as const;
    const refused = (argv: string[]): string => {
      try {
        parseFlags(argv, modes, 'agentwatch');
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('expected a UsageError');
    };
    expect(refused(['--host', '127.0.0.1:7500'])).toBe('--host goes with --api or --gui');
    expect(refused(['--no-open'])).toBe('--no-open goes with --gui');
    expect(refused(['--api', '--no-open'])).toBe('--no-open goes with --gui');
    expect(parseFlags(['--api', '--host', '127.0.0.1:7500'], modes, 'agentwatch').flags.host).toBe('127.0.0.1:7500');
    expect(parseFlags(['--gui', '--no-open', '--host=::1'], modes, 'agentwatch').flags).toMatchObject({ gui: true, open: false, host: '::1' });
    expect(parseFlags(['--host', '127.0.0.1:7500'], modes, 'agentwatch', { combinations: false }).flags.host).toBe('127.0.0.1:7500');
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
    expect(usage(['--window', 'ten'])).toBe('Invalid value for --window: "ten" (expected a whole number from 1 to 10080)');
    expect(usage(['--window', '1.5'])).toMatch(/expected a whole number/);
    expect(usage(['--window', '0'])).toMatch(/from 1 to 10080/);
  });

  it.each(['1e300', '1e3', '9223372036854775807', '99999999999999999999', '0x10', '010', '+5', ' 5', '5 ', '', '10081', 'Infinity', '1_000'])(
    'accepts only plain decimal digits within the range: --window %j is a usage error',
    (value) => {
      expect(usage(['--window', value])).toBe(`Invalid value for --window: ${JSON.stringify(value)} (expected a whole number from 1 to 10080)`);
    },
  );

  it('takes the whole range, ends included', () => {
    expect(parse(['--window', '1']).flags.window).toBe(1);
    expect(parse(['--window=10080']).flags.window).toBe(10_080);
  });

  it('a decimal flag takes a fraction but no exponent, hex or value out of range', () => {
    expect(parse(['--timeout', '2.5']).flags.timeout).toBe(2.5);
    expect(parse(['--timeout', '600']).flags.timeout).toBe(600);
    for (const value of ['1e300', '1e2', '0x10', '010', '.5', '5.', '600.5', '0.5']) {
      expect(usage(['--timeout', value])).toBe(`Invalid value for --timeout: ${JSON.stringify(value)} (expected a number from 1 to 600)`);
    }
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
    expect(usage(['--window', '-5'])).toBe('Invalid value for --window: "-5" (expected a whole number from 1 to 10080)');
    expect(usage(['-5'])).toBe('Unknown flag -5 for agentwatch test');
  });
});
