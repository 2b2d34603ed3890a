import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

/**
 * `agentwatch sessions --json` through a pipe, with a listing of most of a MB (400 Claude sessions
 * with long messages): written in chunks as the reader takes them, complete and valid when read to
 * the end, and a reader that stops early (`| head`) ends the command quietly.
 */
const SESSIONS = 400;
const NOW = Date.now();
let t: TempHome;

const transcript = (cwd: string, id: string, i: number): string => {
  const at = (agoMs: number): string => new Date(NOW - 60_000 * (i + 1) - agoMs).toISOString();
  const long = `${'A long answer about the rate limiter. '.repeat(60)}(${i})`;
  const records = [
    { type: 'user', cwd, sessionId: id, version: '2.0.31', uuid: `${id}-u1`, timestamp: at(9_000), message: { role: 'user', content: `Task ${i}: ${long}` } },
    { type: 'assistant', cwd, sessionId: id, uuid: `${id}-u2`, timestamp: at(0), message: { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: long }], usage: { input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } },
  ];
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
};

beforeAll(async () => {
  t = await makeTempHome('agentwatch-sessions-pipe-');
  const cwd = path.join(t.root, 'work');
  const dir = path.join(t.home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < SESSIONS; i += 1) {
    const id = `0000${i.toString(16).padStart(4, '0')}-1111-4222-8333-444455556666`;
    await writeFile(path.join(dir, `${id}.jsonl`), transcript(cwd, id, i));
  }
});

afterAll(async () => t.cleanup());

describe('sessions --json through a pipe', () => {
  it('writes the whole listing, valid JSON, when the reader takes it all', async () => {
    const result = await runCli(['sessions', '--all', '--json'], { env: t.env, timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    // Several 256 KiB chunks, each larger than a pipe's buffer.
    expect(result.stdout.length).toBeGreaterThan(512 * 1024);
    const listed = JSON.parse(result.stdout) as { session_id: string }[];
    expect(listed).toHaveLength(SESSIONS);
    expect(new Set(listed.map((s) => s.session_id)).size).toBe(SESSIONS);
  });

  it('a warm start lists the same details, read back from the discovery cache (in one pass: all of them are asked for)', async () => {
    const details = (stdout: string): unknown[] =>
      (JSON.parse(stdout) as { session_id: string; recent_messages: unknown; user_messages: number }[]).map((s) => [s.session_id, s.recent_messages, s.user_messages]);
    const env = { ...t.env, XDG_CACHE_HOME: path.join(t.root, 'cache-of-warm-start') };
    const cold = await runCli(['sessions', '--all', '--json'], { env, timeoutMs: 60_000 });
    const warm = await runCli(['sessions', '--all', '--json'], { env, timeoutMs: 60_000 });
    expect(warm.code).toBe(0);
    const listed = details(warm.stdout);
    expect(listed).toHaveLength(SESSIONS);
    expect(listed).toEqual(details(cold.stdout));
    expect(JSON.stringify(listed)).toContain('A long answer about the rate limiter.');
  });

  it('ends quietly with exit 0 when the reader stops after the first bytes (| head), no EPIPE trace', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'sessions', '--all', '--json'], { env: t.env, cwd: t.home, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let first = '';
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString().slice(0, 100);
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first.startsWith('[\n  {')).toBe(true);
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  });
});
