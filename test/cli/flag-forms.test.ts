import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * The command line takes the flags README.md and the usage texts document, in their
 * documented form only: `--no-<flag>` where a negation is documented (`--no-open`), never the
 * other forms meow would take; a flag that only means something beside a mode says so; an unknown
 * flag is suggested the nearest documented one of that command. Needs `npm run build` first.
 */
let temp: TempHome;
beforeAll(async () => {
  temp = await makeTempHome('agentwatch-flag-forms-');
});
afterAll(() => temp.cleanup());

const usageError = async (args: string[]): Promise<string> => {
  const run = await runCli(args, { env: temp.env });
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
  expect(run.stdout).toBe('');
  const [line, hint, ...rest] = run.stderr.split('\n');
  expect(hint).toMatch(/^Run agentwatch.* --help$/);
  expect(rest).toEqual(['']);
  return line ?? '';
};

describe('only documented flag forms', () => {
  it.each([
    [['sessions', '--all', '--no-json'], 'Unknown flag --no-json for agentwatch sessions (--json is off unless given)'],
    [['limits', '--no-demo'], 'Unknown flag --no-demo for agentwatch limits (--demo is off unless given)'],
    [['doctor', '--no-json'], 'Unknown flag --no-json for agentwatch doctor (--json is off unless given)'],
    [['search', 'foo', '--no-reindex'], 'Unknown flag --no-reindex for agentwatch search (--reindex is off unless given)'],
    [['passphrase', '--no-show'], 'Unknown flag --no-show for agentwatch passphrase (--show is off unless given)'],
    [['webhooks', 'log', '--no-json'], 'Unknown flag --no-json for agentwatch webhooks log (--json is off unless given)'],
    [['--no-tui'], 'Unknown flag --no-tui for agentwatch (--tui is off unless given)'],
    [['--api', '--no-demo'], 'Unknown flag --no-demo for agentwatch (--demo is off unless given)'],
    [['--gui', '--open'], 'Unknown flag --open for agentwatch (--open is the default; --no-open turns it off)'],
    [['--open', '--version'], 'Unknown flag --open for agentwatch (--open is the default; --no-open turns it off)'],
  ])('%j is a usage error', async (args, message) => {
    expect(await usageError(args)).toBe(`agentwatch: ${message}`);
  });

  it('the documented negation --no-open is taken (beside --help it answers the help)', async () => {
    const help = await runCli(['--gui', '--no-open', '--help'], { env: temp.env });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('--no-open');
  });
});

describe('--host without --api or --gui', () => {
  it.each([[['--host', '127.0.0.1:7500']], [['--tui', '--host', '127.0.0.1:7500']], [['--demo', '--host=127.0.0.1:7500']]])('%j is a usage error naming what it goes with', async (args) => {
    expect(await usageError(args)).toBe('agentwatch: --host goes with --api or --gui');
  });

  it('is taken with --api, and beside --help answers the help', async () => {
    // An address of another machine is refused after the flags are taken: the flags were accepted.
    const api = await runCli(['--api', '--host', '192.0.2.1:7500'], { env: { ...temp.env, AGENTWATCH_API_PASSPHRASE: 'a long enough passphrase' } });
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('is not an address of this machine');
    const help = await runCli(['--host', '127.0.0.1:7500', '--help'], { env: temp.env });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/--host ADDR +with --api or --gui: listen address/);
  });
});

describe('did you mean, for flags', () => {
  it.each([
    [['--agnet', 'claude'], 'Unknown flag --agnet for agentwatch (did you mean --agent?)'],
    [['sessions', '--agnet', 'claude'], 'Unknown flag --agnet for agentwatch sessions (did you mean --agent?)'],
    [['--gui', '--no-opne'], 'Unknown flag --no-opne for agentwatch (did you mean --no-open?)'],
    [['sessions', '--hlep'], 'Unknown flag --hlep for agentwatch sessions (did you mean --help?)'],
    [['--verison'], 'Unknown flag --verison for agentwatch (did you mean --version?)'],
    [['webhooks', 'log', '--jsno'], 'Unknown flag --jsno for agentwatch webhooks log (did you mean --json?)'],
    [['webhooks', 'test', '--timout', '3'], 'Unknown flag --timout for agentwatch webhooks test (did you mean --timeout?)'],
    // Only `log` takes --json and --limit: another subcommand is not offered them.
    [['webhooks', 'test', '--jsno'], 'Unknown flag --jsno for agentwatch webhooks test'],
    [['webhooks', '--json', 'log', '--limt', '3'], 'Unknown flag --limt for agentwatch webhooks log (did you mean --limit?)'],
  ])('%j', async (args, message) => {
    expect(await usageError(args)).toBe(`agentwatch: ${message}`);
  });
});
