/**
 * Writes a realistic corpus of all nine agents under `<root>/home` (a fake HOME): claude, codex and
 * pi transcripts (most of the bytes), amp, grok and kimi files, opencode and kilo databases here;
 * the Cursor database by `refreshCursor` (its sessions are only listed within 48 h of now).
 * Deterministic (seeded PRNG): the same size parameters give the same bytes, so a corpus is
 * reused between runs when its manifest matches. Includes junk lines, a partial last line in
 * some files, sub-agent transcripts, and a few multi-MB lines.
 */
import { Buffer } from 'node:buffer';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ampThread, configHome, dataHome, grokSession, kimiSession, writeCursorDb, writeFamilyDb } from './corpus-agents.mjs';

const mulberry32 = (seed) => () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const WORDS = 'const let return function async await import export from type interface if else for while switch case break new this value error result state event session token window cache offset stream file path read write parse line record'.split(' ');

/** A 256 KB block of code-like text; file contents are slices of it. */
const makeText = (rand) => {
  const out = [];
  let size = 0;
  while (size < 262_144) {
    const words = Array.from({ length: 4 + Math.floor(rand() * 10) }, () => WORDS[Math.floor(rand() * WORDS.length)]);
    const line = `${'  '.repeat(Math.floor(rand() * 4))}${words.join(' ')};`;
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n');
};

const uuid = (rand) => {
  const hex = () => Math.floor(rand() * 16).toString(16);
  const part = (n) => Array.from({ length: n }, hex).join('');
  return `${part(8)}-${part(4)}-4${part(3)}-a${part(3)}-${part(12)}`;
};

const CLAUDE_TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'Glob', 'Write', 'Task', 'WebFetch', 'TodoWrite'];
const CODEX_TOOLS = ['exec_command', 'apply_patch', 'shell', 'web_search', 'update_plan'];
const PI_TOOLS = ['read', 'edit', 'bash', 'write', 'grep', 'find'];

/**
 * Bytes of one session: heavy-tailed (many small sessions, a few large ones) with mean `meanKb`:
 * u^-0.6 has mean 2.5, and one session is capped at 64x the mean.
 */
const sessionBytes = (rand, meanKb) => {
  const u = Math.max(1e-9, rand());
  return Math.max(4_096, Math.round(meanKb * 1024 * Math.min(64, u ** -0.6 / 2.5)));
};

const claudeSession = (ctx) => {
  const { rand, text, cwd, id, start, bytes, sidechain, huge } = ctx;
  const lines = [];
  let size = 0;
  let t = start;
  let n = 0;
  const base = { parentUuid: null, isSidechain: sidechain, userType: 'external', cwd, sessionId: id, version: '2.0.31', gitBranch: 'main' };
  const push = (record) => {
    const line = JSON.stringify(record);
    lines.push(line);
    size += line.length + 1;
  };
  push({ type: 'summary', summary: `Work on ${path.basename(cwd)}`, leafUuid: uuid(rand) });
  push({ ...base, type: 'user', uuid: uuid(rand), timestamp: new Date(t).toISOString(), message: { role: 'user', content: 'Refactor the session loader and add tests' } });
  while (size < bytes) {
    n += 1;
    t += 2_000 + Math.floor(rand() * 20_000);
    const tool = CLAUDE_TOOLS[Math.floor(rand() * CLAUDE_TOOLS.length)];
    const callId = `toolu_${uuid(rand).replace(/-/g, '')}`;
    const msgId = `msg_${uuid(rand).replace(/-/g, '').slice(0, 20)}`;
    const usage = { input_tokens: 3 + Math.floor(rand() * 50), cache_creation_input_tokens: Math.floor(rand() * 3000), cache_read_input_tokens: 10_000 + Math.floor(rand() * 60_000), output_tokens: 20 + Math.floor(rand() * 800) };
    // One response over two lines (text, then tool_use) sharing message.id, as Claude Code writes it.
    push({ ...base, type: 'assistant', uuid: uuid(rand), requestId: `req_${n}`, timestamp: new Date(t).toISOString(), message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: text.slice(n % 1000, (n % 1000) + 200) }], usage } });
    push({ ...base, type: 'assistant', uuid: uuid(rand), requestId: `req_${n}`, timestamp: new Date(t + 300).toISOString(), message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: callId, name: tool, input: { file_path: `${cwd}/src/file${n % 40}.ts` } }], stop_reason: 'tool_use', usage } });
    const from = Math.floor(rand() * (text.length - 20_000));
    const content = text.slice(from, from + 500 + Math.floor(rand() * 9_000));
    push({ ...base, type: 'user', uuid: uuid(rand), timestamp: new Date(t + 900).toISOString(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content }] }, toolUseResult: { type: 'text', file: { filePath: `${cwd}/src/file${n % 40}.ts`, content } } });
    if (n % 7 === 0) lines.push('{"type":"assistant","message":{"role":'); // junk line
  }
  if (huge) push({ ...base, type: 'user', uuid: uuid(rand), timestamp: new Date(t + 1_000).toISOString(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_huge', content: text.repeat(20) }] } });
  push({ ...base, type: 'assistant', uuid: uuid(rand), timestamp: new Date(t + 2_000).toISOString(), message: { id: `msg_end_${id}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'Done: the loader is refactored and tested.' }], usage: { input_tokens: 4, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 20_000 } } });
  return `${lines.join('\n')}\n`;
};

const codexSession = (ctx) => {
  const { rand, text, cwd, id, start, bytes } = ctx;
  const lines = [];
  let size = 0;
  let t = start;
  const push = (type, payload) => {
    const line = JSON.stringify({ timestamp: new Date(t).toISOString(), type, payload });
    lines.push(line);
    size += line.length + 1;
  };
  push('session_meta', { id, timestamp: new Date(t).toISOString(), cwd, originator: 'codex_cli_rs', cli_version: '0.116.0', source: 'cli', model_provider: 'openai', instructions: text.slice(0, 3_000), git: { branch: 'main' } });
  push('turn_context', { cwd, approval_policy: 'on-request', model: 'gpt-5.2-codex', effort: 'medium', git: { branch: 'main' } });
  push('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Why does invoice rounding fail for JPY?' }] });
  let n = 0;
  let input = 0;
  while (size < bytes) {
    n += 1;
    t += 1_000 + Math.floor(rand() * 15_000);
    const callId = `call_${n}_${id.slice(0, 6)}`;
    const tool = CODEX_TOOLS[Math.floor(rand() * CODEX_TOOLS.length)];
    push('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: text.slice(n % 500, (n % 500) + 300) }] });
    push('response_item', { type: 'function_call', name: tool, arguments: JSON.stringify({ cmd: 'rg -n round internal/invoice' }), call_id: callId });
    const from = Math.floor(rand() * (text.length - 20_000));
    push('response_item', { type: 'function_call_output', call_id: callId, output: text.slice(from, from + 500 + Math.floor(rand() * 6_000)) });
    input += 3_000 + Math.floor(rand() * 4_000);
    push('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: Math.floor(input * 0.7), output_tokens: n * 200, reasoning_output_tokens: n * 60, total_tokens: input + n * 260 }, model_context_window: 272_000 } });
  }
  push('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'JPY has 0 minor units; fixed.' }] });
  push('event_msg', { type: 'task_complete', last_agent_message: 'JPY has 0 minor units; fixed.' });
  return `${lines.join('\n')}\n`;
};

const piSession = (ctx) => {
  const { rand, text, cwd, start, bytes, headerId } = ctx;
  const lines = [];
  let size = 0;
  let t = start;
  let parent = null;
  const push = (record) => {
    const line = JSON.stringify(record);
    lines.push(line);
    size += line.length + 1;
  };
  const entry = (type, fields) => {
    const id = uuid(rand).slice(0, 8);
    push({ type, id, parentId: parent, timestamp: new Date(t).toISOString(), ...fields });
    parent = id;
  };
  push({ type: 'session', version: 3, id: headerId, timestamp: new Date(t).toISOString(), cwd });
  entry('model_change', { provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  entry('message', { message: { role: 'user', content: [{ type: 'text', text: 'Rename todo.md and fix links' }], timestamp: t } });
  let n = 0;
  while (size < bytes) {
    n += 1;
    t += 1_500 + Math.floor(rand() * 12_000);
    const callId = `toolu_${n}_${headerId.slice(0, 6)}`;
    const tool = PI_TOOLS[Math.floor(rand() * PI_TOOLS.length)];
    entry('message', { message: { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'toolCall', id: callId, name: tool, arguments: { path: `${cwd}/notes${n % 9}.md` } }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 40, output: 58, cacheRead: 2920, cacheWrite: 0, totalTokens: 3018, cost: { input: 0.00012, output: 0.00087, cacheRead: 0.000876, cacheWrite: 0, total: 0.001866 } }, stopReason: 'toolUse', timestamp: t } });
    const from = Math.floor(rand() * (text.length - 20_000));
    entry('message', { message: { role: 'toolResult', toolCallId: callId, toolName: tool, content: [{ type: 'text', text: text.slice(from, from + 400 + Math.floor(rand() * 5_000)) }], isError: false, timestamp: t + 200 } });
  }
  entry('message', { message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], model: 'claude-sonnet-4-5', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.0001 } }, stopReason: 'stop', timestamp: t + 500 } });
  return `${lines.join('\n')}\n`;
};

/** Sessions per agent of the six smaller agents (cursor: composers within 48 h). */
const extraCount = (sessions) => Math.max(10, Math.round(sessions / 20));

/**
 * Write (or reuse) the corpus. `sessions` claude/codex/pi transcripts (65% claude, 25% codex,
 * 10% pi), about `meanKb` KB each, plus sessions/20 sessions of each other agent. Returns the corpus
 * facts: HOME, files, SQLite databases, bytes, and the sessions `sessions --all` must list per agent.
 */
export const ensureCorpus = ({ root, sessions, meanKb, now = Date.UTC(2026, 10, 20, 12) }) => {
  const manifestPath = path.join(root, 'manifest.json');
  const params = { version: 4, sessions, meanKb, now };
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (JSON.stringify(manifest.params) === JSON.stringify(params)) return manifest;
  }
  rmSync(root, { recursive: true, force: true });
  const home = path.join(root, 'home');
  const rand = mulberry32(42);
  const text = makeText(rand);
  const files = [];
  const expected = { amp: 0, claude: 0, codex: 0, cursor: 0, grok: 0, kilo: 0, kimi: 0, opencode: 0, pi: 0 };
  let bytes = 0;
  const write = (file, content) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    files.push(file);
    bytes += Buffer.byteLength(content);
  };
  for (let i = 0; i < sessions; i += 1) {
    const kind = i % 20 < 13 ? 'claude' : i % 20 < 18 ? 'codex' : 'pi';
    expected[kind] += 1;
    const project = `proj-${i % 97}`;
    const cwd = `/bench/work/${project}`;
    // Most sessions are days old; one in 25 is from the last half hour.
    const start = now - (i % 25 === 0 ? Math.floor(rand() * 1_800_000) : Math.floor(rand() * 30 * 86_400_000)) - 3_600_000;
    const ctx = { rand, text, cwd, id: uuid(rand), start, bytes: sessionBytes(rand, meanKb), sidechain: false, huge: i % 400 === 7 };
    if (kind === 'claude') {
      const dir = path.join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
      write(path.join(dir, `${ctx.id}.jsonl`), claudeSession(ctx));
      if (i % 10 === 0) write(path.join(dir, ctx.id, 'subagents', `agent-${ctx.id.slice(0, 8)}.jsonl`), claudeSession({ ...ctx, id: ctx.id, sidechain: true, bytes: 8_000, huge: false }));
    } else if (kind === 'codex') {
      const day = new Date(start).toISOString().slice(0, 10).split('-');
      write(path.join(home, '.codex', 'sessions', ...day, `rollout-${new Date(start).toISOString().slice(0, 19).replace(/:/g, '-')}-${ctx.id}.jsonl`), codexSession(ctx));
    } else {
      const stamp = new Date(start).toISOString().replace(/[:.]/g, '-');
      const content = piSession({ ...ctx, headerId: ctx.id });
      // Some files end in a half-written line, as a live agent leaves them.
      write(path.join(home, '.pi', 'agent', 'sessions', `--${cwd.slice(1).replace(/\//g, '-')}--`, `${stamp}_${ctx.id}.jsonl`), i % 3 === 0 ? `${content}{"type":"message","id":"ff` : content);
    }
  }
  // The six smaller agents: sessions/20 sessions each, about meanKb each (a turn is ~1.5 KB).
  const extra = extraCount(sessions);
  const turns = Math.max(4, Math.round(meanKb / 1.5));
  const filler = text.slice(0, 240);
  for (let i = 0; i < extra; i += 1) {
    const start = now - Math.floor(rand() * 30 * 86_400_000) - 3_600_000;
    for (const make of [ampThread, grokSession, kimiSession]) {
      const session = { id: uuid(rand), cwd: `/bench/work/proj-${i % 97}`, start, turns, filler };
      for (const [file, content] of make(session)) write(path.join(home, file), content);
    }
  }
  expected.amp = expected.grok = expected.kimi = extra;
  const dbs = [];
  for (const agent of ['opencode', 'kilo']) {
    const file = path.join(dataHome(home), agent, `${agent}.db`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFamilyDb({ file, agent, sessions: extra, turns, filler, start: (s) => now - (s % 5 === 0 ? 3_600_000 : 86_400_000 * (1 + (s % 30))) });
    dbs.push(file);
    expected[agent] = extra;
  }
  const cursorDb = path.join(configHome(home), 'Cursor', 'User', 'globalStorage', 'state.vscdb');
  dbs.push(cursorDb);
  expected.cursor = extra;
  const manifest = { params, home, files: files.length, bytes, dbs, expected, cursor: { file: cursorDb, composers: extra * 4, recent: extra, bubbles: Math.min(60, 2 * turns), filler } };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(root, 'files.txt'), files.join('\n'));
  writeFileSync(path.join(root, 'dbs.txt'), dbs.join('\n'));
  return manifest;
};

/** (Re)writes the Cursor database with times relative to `now`, so its sessions are inside the 48 h window. */
export const refreshCursor = (manifest, now = Date.now()) => {
  const { file, ...shape } = manifest.cursor;
  mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  writeCursorDb({ file, ...shape, now });
};
