import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { hasTmux, makeTmux } from './helpers/tmux.js';

/**
 * The detail panel of --demo in a real terminal at 80 and 160 columns (below the list, then
 * beside it): the conversation before the record's fields, and no field cut short.
 */
const tmux = makeTmux('tui-detail');
let home: TempHome;
let env: Record<string, string>;

beforeAll(async () => {
  if (!hasTmux) return;
  home = await makeTempHome('agentwatch-tui-detail-');
  env = { ...home.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
});

afterAll(async () => {
  if (!hasTmux) return;
  tmux.kill();
  await home.cleanup();
});

/** The detail panel's rows, without the borders: below the list at 80 columns, beside it at 160. */
const detailRows = (screen: string, width: number): string[] => {
  const lines = screen.split('\n');
  if (width < 120) {
    const top = lines.findIndex((line) => line.startsWith('├─ Detail'));
    return lines.slice(top + 1).filter((line) => line.startsWith('│')).map((line) => line.slice(1, -1));
  }
  const column = [...(lines.find((line) => line.includes('┬─ Detail')) ?? '')].indexOf('┬');
  return lines.filter((line) => line.startsWith('│')).map((line) => [...line].slice(column + 1, -1).join(''));
};

describe.skipIf(!hasTmux)('the detail panel in a terminal (tmux, --demo)', () => {
  it.each([
    [80, 50],
    [160, 45],
  ])('%i columns: the conversation first, fields whole', async (width, height) => {
    const name = `d${width}`;
    tmux.launch(name, ['--demo'], env, { width, height });
    const screen = await tmux.waitFor(name, (text) => /Tokens +in \S+ +out \S+/.test(text) && text.includes('Conversation'), 'a detail with tokens', 30_000);
    const rows = detailRows(screen, width).map((row) => row.trimEnd());
    const at = (pattern: RegExp): number => rows.findIndex((row) => pattern.test(row));
    expect(at(/^ Conversation/)).toBeGreaterThan(-1);
    expect(at(/^ Conversation/)).toBeLessThan(at(/^ Agent /));
    expect(at(/^ +(you|agent) +\S/)).toBe(at(/^ Conversation/) + 1);
    expect(rows.join('\n')).not.toContain('…');
    expect(rows.find((row) => /^ Tokens /.test(row))).toMatch(/Tokens +in \S+ +out \S+/);
    tmux.keys(name, 'q');
    await tmux.waitText(name, 'EXITED 0');
  });
});
