import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Claude transcripts for the dashboard tests, written at their real place under a temp HOME
 * (`~/.claude/projects/<dir>/<id>.jsonl`), with timestamps relative to now so they fall inside
 * the visibility window.
 */

export interface ClaudeSession {
  readonly id: string;
  readonly cwd: string;
  readonly branch?: string;
}

const iso = (agoMs: number): string => new Date(Date.now() - agoMs).toISOString();
const base = (s: ClaudeSession) => ({ cwd: s.cwd, sessionId: s.id, version: '2.0.31', gitBranch: s.branch ?? 'main', isSidechain: false, userType: 'external' });

export const prompt = (s: ClaudeSession, agoMs: number, text: string): object => ({ ...base(s), type: 'user', message: { role: 'user', content: text }, timestamp: iso(agoMs) });

export const reply = (s: ClaudeSession, agoMs: number, messageId: string, content: readonly object[]): object => ({
  ...base(s),
  type: 'assistant',
  message: {
    id: messageId,
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    usage: { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 0, cache_read_input_tokens: 5000 },
  },
  timestamp: iso(agoMs),
});

export const text = (value: string): object => ({ type: 'text', text: value });
export const toolUse = (id: string, name: string, input: object): object => ({ type: 'tool_use', id, name, input });

const fileOf = (home: string, s: ClaudeSession): string => path.join(home, '.claude', 'projects', s.cwd.replace(/[^A-Za-z0-9]/g, '-'), `${s.id}.jsonl`);
const jsonl = (records: readonly object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');

export const writeClaudeSession = async (home: string, s: ClaudeSession, records: readonly object[]): Promise<string> => {
  const file = fileOf(home, s);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, jsonl(records));
  return file;
};

export const appendClaudeRecords = async (home: string, s: ClaudeSession, records: readonly object[]): Promise<void> => {
  await appendFile(fileOf(home, s), jsonl(records));
};
