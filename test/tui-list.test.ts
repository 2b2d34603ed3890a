import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { hasTmux, listRows, makeTmux, nameCell, selectedRow } from './helpers/tmux.js';

/**
 * The list as a user lives with it, in a real terminal: column headers, rows that say
 * which agent, what and where, an order that does not shuffle while agents work, the selection
 * following its session, S, the mouse, the ? overlay and warnings shown inside the TUI.
 */
const tmux = makeTmux('tui-list');
let home: TempHome;
let env: Record<string, string>;
let projects: string;

const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();

interface Transcript {
  readonly id: string;
  readonly file: string;
  readonly base: Record<string, string>;
}

/** A Claude Code transcript in the temp HOME for project `name`, titled `title`. */
const transcript = async (name: string, title: string): Promise<Transcript> => {
  const id = randomUUID();
  const cwd = path.join(projects, name);
  await mkdir(cwd, { recursive: true });
  const dir = path.join(home.home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  await writeFile(file, `${JSON.stringify({ type: 'custom-title', customTitle: title, sessionId: id })}\n`);
  return { id, file, base: { sessionId: id, cwd, version: '2.0.14', gitBranch: 'main' } };
};

const prompt = (t: Transcript, msAgo: number, text: string): string =>
  JSON.stringify({ ...t.base, type: 'user', uuid: randomUUID(), timestamp: iso(msAgo), message: { role: 'user', content: text } });

/** An assistant turn calling a tool (left pending: the session works with it). */
const toolCall = (t: Transcript, msAgo: number, tool: string): string =>
  JSON.stringify({
    ...t.base,
    type: 'assistant',
    uuid: randomUUID(),
    timestamp: iso(msAgo),
    message: {
      role: 'assistant',
      id: `msg_${randomUUID()}`,
      model: 'claude-sonnet-4-5',
      content: [{ type: 'tool_use', id: `toolu_${randomUUID()}`, name: tool, input: { command: 'npm test', file_path: '/tmp/x', pattern: 'x' } }],
      usage: { input_tokens: 12_000, output_tokens: 3_400 },
    },
  });

const answer = (t: Transcript, msAgo: number, text: string): string =>
  JSON.stringify({
    ...t.base,
    type: 'assistant',
    uuid: randomUUID(),
    timestamp: iso(msAgo),
    message: { role: 'assistant', id: `msg_${randomUUID()}`, model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], usage: { input_tokens: 900, output_tokens: 120 } },
  });

const append = (t: Transcript, ...lines: string[]): Promise<void> => appendFile(t.file, `${lines.join('\n')}\n`);

beforeAll(async () => {
  if (!hasTmux) return;
  home = await makeTempHome('agentwatch-tui-list-');
  projects = path.join(home.root, 'work');
  const { NO_COLOR: _noColor, ...rest } = home.env;
  env = { ...rest, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
});

afterAll(async () => {
  if (!hasTmux) return;
  tmux.kill();
  await home.cleanup();
});

/** The NAME cells of the list, top to bottom. */
const names = (screen: string): string[] => listRows(screen).map((row) => nameCell(screen, row));

describe.skipIf(!hasTmux)('the session list in a real terminal (tmux)', () => {
  it('headers and rows; working rows keep their places; a session that starts working joins them with the selection following it; S; mouse; ?; warnings inside', async () => {
    const alpha = await transcript('alpha', 'Alpha limiter');
    const beta = await transcript('beta', 'Beta parser');
    const gamma = await transcript('gamma', 'Gamma docs');
    await append(alpha, prompt(alpha, 20_000, 'add a rate limiter'), toolCall(alpha, 5_000, 'Bash'));
    await append(beta, prompt(beta, 15_000, 'speed up the parser'), toolCall(beta, 3_000, 'Read'));
    await append(gamma, prompt(gamma, 10 * 60_000, 'write the docs'), answer(gamma, 9 * 60_000, 'Done.'));
    // A typo in the config: the warning shows inside the TUI, not only after quitting.
    const config = path.join(env.XDG_CONFIG_HOME ?? '', 'agentwatch');
    await mkdir(config, { recursive: true });
    await writeFile(path.join(config, 'config.json'), JSON.stringify({ window_minuts: 30 }));

    const name = 'list';
    tmux.launch(name, ['--agent', 'claude'], env, { width: 100, height: 30 });
    let screen = await tmux.waitFor(name, (s) => listRows(s).length === 3, 'three rows');
    const header = screen.split('\n').find((line) => line.includes('ACTIVITY')) ?? '';
    for (const column of ['AGENT', 'ACTIVITY', 'NAME', 'PROJECT', 'MODEL', 'COST', 'AGE', 'MIN']) expect(header).toContain(column);
    expect(screen).toContain('┌─ Sessions');
    expect(screen).toContain('├─ Detail');
    // Newest first on the first frame: beta wrote last.
    expect(names(screen)).toEqual(['Beta parser', 'Alpha limiter', 'Gamma docs']);
    const alphaRow = listRows(screen)[1] ?? '';
    for (const cell of ['claude', 'running', 'Alpha limiter', 'alpha', 'sonnet-4-5', '$0.']) expect(alphaRow).toContain(cell);
    expect(listRows(screen)[2]).toContain('idle');
    expect(screen).toContain('! 1 warning: config.json: unknown key "window_minuts"');
    expect(screen).toContain('? lists all · agentwatch doctor');

    // alpha works on (a search now): by raw time it is the newest, but its row stays where it is.
    await append(alpha, toolCall(alpha, 0, 'Grep'));
    screen = await tmux.waitFor(name, (s) => (listRows(s)[1] ?? '').includes('searching') || (listRows(s)[0] ?? '').includes('searching'), 'alpha searching');
    expect(names(screen)).toEqual(['Beta parser', 'Alpha limiter', 'Gamma docs']);

    // Click gamma, the third row: title, border, status line, headers, then rows from screen row 5.
    tmux.mouse(name, 0, 30, 7);
    screen = await tmux.waitFor(name, (s) => nameCell(s, selectedRow(s)) === 'Gamma docs', 'gamma selected by the click');
    expect(screen).toMatch(/Sessions 3\/3/);

    // gamma starts working: it joins the working rows (needs-you, the default order: it started
    // first, so it comes after them), and the selection is still gamma.
    await append(gamma, prompt(gamma, 1_000, 'and the API page'), toolCall(gamma, 0, 'Bash'));
    screen = await tmux.waitFor(name, (s) => (listRows(s)[2] ?? '').includes('running'), 'gamma working');
    expect(names(screen)).toEqual(['Beta parser', 'Alpha limiter', 'Gamma docs']);
    expect(nameCell(screen, selectedRow(screen))).toBe('Gamma docs');
    expect(screen).toMatch(/Sessions 3\/3/);

    // S: recent, started, name, cost, then by project.
    expect(screen).toContain('sort needs-you');
    for (const word of ['recent', 'started', 'name', 'cost']) {
      tmux.keys(name, 'S');
      await tmux.waitText(name, `sort ${word}`);
    }
    tmux.keys(name, 'S');
    screen = await tmux.waitText(name, 'sort project');
    expect(names(screen)).toEqual(['Alpha limiter', 'Beta parser', 'Gamma docs']);
    expect(nameCell(screen, selectedRow(screen))).toBe('Gamma docs');

    // ?: every key and the warning; esc closes.
    tmux.keys(name, '?');
    screen = await tmux.waitText(name, 'Help: keys, agents, warnings');
    expect(screen).toContain('previous / next session');
    tmux.keys(name, 'Escape');
    await tmux.waitFor(name, (s) => !s.includes('Help: keys'), 'the overlay closed');
    tmux.keys(name, 'q');
    await tmux.waitText(name, 'EXITED 0');
  });

  it('with nothing in the window: says so, counts the older sessions, points at + and --demo, and lists where it looked (long paths cut with an ellipsis)', async () => {
    const deep = await makeTempHome(`agentwatch-tui-empty-${'a-rather-long-directory-name-'.repeat(3)}`);
    try {
      const { NO_COLOR: _noColor, ...rest } = deep.env;
      const emptyEnv = { ...rest, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
      tmux.launch('empty', ['--agent', 'claude'], emptyEnv, { width: 80, height: 24 });
      let screen = await tmux.waitText('empty', 'Looked in:');
      expect(screen).toContain('No sessions active in the last 30 minutes.');
      expect(screen).toContain('None older either. To see agentwatch at work: agentwatch --demo');
      // The claude directory is longer than the panel: its end is kept, the cut marked.
      expect(screen).toMatch(/│ +…\S*\/\.claude\/projects +│/);
      tmux.keys('empty', 'q');
      await tmux.waitText('empty', 'EXITED 0');

      // One session from two hours ago: counted, with the key that reaches it.
      const id = randomUUID();
      const dir = path.join(deep.home, '.claude', 'projects', '-old');
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `${id}.jsonl`), `${JSON.stringify({ sessionId: id, cwd: '/old', type: 'user', timestamp: iso(2 * 3_600_000), message: { role: 'user', content: 'old' } })}\n`);
      tmux.launch('older', ['--agent', 'claude'], emptyEnv, { width: 80, height: 24 });
      screen = await tmux.waitText('older', 'Looked in:');
      expect(screen).toContain('1 older session outside the window: + widens it (up to 8 hours),');
      expect(screen).toContain('agentwatch sessions --all lists every age.');
      tmux.keys('older', 'q');
      await tmux.waitText('older', 'EXITED 0');
    } finally {
      await deep.cleanup();
    }
  });
});
