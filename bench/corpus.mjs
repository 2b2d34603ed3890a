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

const uuidOf = (rand) => {
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

/**
 * Characters of one tool output, shaped like real transcripts: most are a few KB (a grep, a short
 * command), some tens of KB (a file read), a few hundred KB (a build log), one in a hundred up to
 * 1 MB. Multi-MB outputs are placed per session by the generators (`huge`, `oversized`).
 */
const outputChars = (rand) => {
  const u = rand();
  if (u < 0.7) return 300 + Math.floor(rand() * 3_700);
  if (u < 0.92) return 4_000 + Math.floor(rand() * 36_000);
  if (u < 0.99) return 40_000 + Math.floor(rand() * 210_000);
  return 250_000 + Math.floor(rand() * 750_000);
};

/** `chars` characters of code-like text starting anywhere in `text` (repeated when longer). */
const slice = (rand, text, chars) => {
  if (chars >= text.length) return text.repeat(Math.ceil(chars / text.length)).slice(0, chars);
  const from = Math.floor(rand() * (text.length - chars));
  return text.slice(from, from + chars);
};

/** Signatures and encrypted reasoning: slices of one random base64 block (built once per corpus). */
let base64Pool = '';
const base64ish = (rand, chars) => {
  if (base64Pool === '') {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    base64Pool = Array.from({ length: 65_536 }, () => alphabet[Math.floor(rand() * 64)]).join('');
  }
  return slice(rand, base64Pool, chars);
};

/** Multi-MB outputs: one session in HUGE_EVERY has a 1-5 MB one; one in OVERSIZED_EVERY a record over the 8 MiB line cap. */
const HUGE_EVERY = 61;
const OVERSIZED_EVERY = 997;
const hugeChars = (rand) => 1_000_000 + Math.floor(rand() * 4_000_000);
const OVERSIZED_CHARS = 9_500_000;

/**
 * One Claude Code 2.x transcript: prompts with file-history snapshots, assistant responses split
 * over one line per content block (thinking with its signature, text, tool_use) sharing message.id,
 * tool results carrying the output twice (message content and toolUseResult, as Claude Code
 * writes them), progress lines of hooks and long commands, a summary, and junk lines.
 */
const claudeSession = (ctx) => {
  const { rand, text, cwd, id, start, bytes, sidechain, huge, oversized } = ctx;
  const lines = [];
  let size = 0;
  let t = start;
  let n = 0;
  let parent = null;
  const base = { isSidechain: sidechain, userType: 'external', cwd, sessionId: id, version: '2.0.31', gitBranch: 'main' };
  const push = (record) => {
    const line = JSON.stringify(record);
    lines.push(line);
    size += line.length + 1;
  };
  const entry = (fields) => {
    const uuid = uuidOf(rand);
    push({ parentUuid: parent, ...base, ...fields, uuid, timestamp: new Date(t).toISOString() });
    parent = uuid;
  };
  const leaf = uuidOf(rand);
  push({ type: 'summary', summary: `Work on ${path.basename(cwd)}`, leafUuid: leaf });
  const prompt = () => {
    push({ type: 'file-history-snapshot', messageId: uuidOf(rand), snapshot: { messageId: uuidOf(rand), trackedFileBackups: { [`${cwd}/src/index.ts`]: { backupFileName: `${uuidOf(rand)}@v1`, version: 1, backupTime: new Date(t).toISOString() } }, timestamp: new Date(t).toISOString() }, isSnapshotUpdate: false });
    entry({ type: 'user', message: { role: 'user', content: slice(rand, text, 80 + Math.floor(rand() * 600)) }, thinkingMetadata: { level: 'high', disabled: false, triggers: [] }, todos: [] });
  };
  const usageOf = () => ({ input_tokens: 3 + Math.floor(rand() * 50), cache_creation_input_tokens: Math.floor(rand() * 3000), cache_read_input_tokens: 10_000 + Math.floor(rand() * 60_000), cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 20 + Math.floor(rand() * 800), service_tier: 'standard' });
  prompt();
  // Sizes of the multi-MB outputs still to place (near the end of the session).
  const bigOutputs = [...(oversized ? [OVERSIZED_CHARS] : []), ...(huge ? [hugeChars(rand)] : [])];
  while (size < bytes || bigOutputs.length > 0) {
    n += 1;
    t += 2_000 + Math.floor(rand() * 20_000);
    if (n % 12 === 0) prompt();
    const tool = CLAUDE_TOOLS[Math.floor(rand() * CLAUDE_TOOLS.length)];
    const callId = `toolu_${uuidOf(rand).replace(/-/g, '')}`;
    const msgId = `msg_${uuidOf(rand).replace(/-/g, '').slice(0, 24)}`;
    const usage = usageOf();
    const message = (content, extra = {}) => ({ model: 'claude-sonnet-4-5-20250929', id: msgId, type: 'message', role: 'assistant', content, stop_reason: null, stop_sequence: null, usage, ...extra });
    // One response over several lines (thinking, text, tool_use) sharing message.id, as Claude Code writes it.
    if (rand() < 0.4) entry({ type: 'assistant', requestId: `req_${n}`, message: message([{ type: 'thinking', thinking: slice(rand, text, 200 + Math.floor(rand() * 3_000)), signature: base64ish(rand, 400 + Math.floor(rand() * 1_200)) }]) });
    entry({ type: 'assistant', requestId: `req_${n}`, message: message([{ type: 'text', text: slice(rand, text, 60 + Math.floor(rand() * 800)) }]) });
    t += 300;
    const input = tool === 'Edit' ? { file_path: `${cwd}/src/file${n % 40}.ts`, old_string: slice(rand, text, 300), new_string: slice(rand, text, 400) } : tool === 'Bash' ? { command: 'npm test -- --run', description: 'Run the tests' } : { file_path: `${cwd}/src/file${n % 40}.ts` };
    entry({ type: 'assistant', requestId: `req_${n}`, message: message([{ type: 'tool_use', id: callId, name: tool, input }], { stop_reason: 'tool_use' }) });
    if (tool === 'Bash' && rand() < 0.5) {
      for (let p = 0; p < 3; p += 1) push({ type: 'progress', data: { type: 'bash_progress', output: slice(rand, text, 200), elapsedTimeSeconds: p + 1 }, toolUseID: callId, parentToolUseID: callId, ...base, uuid: uuidOf(rand), timestamp: new Date(t + p * 100).toISOString() });
    }
    t += 900;
    let chars = outputChars(rand);
    if (bigOutputs.length > 0 && size + chars >= bytes) chars = bigOutputs.shift();
    const content = slice(rand, text, chars);
    // The output appears twice (Claude Code writes it in the message and in toolUseResult), so halve it.
    const half = content.slice(0, Math.ceil(content.length / 2));
    const result = tool === 'Bash' ? { stdout: half, stderr: '', interrupted: false, isImage: false } : { type: 'text', file: { filePath: `${cwd}/src/file${n % 40}.ts`, content: half, numLines: 200, startLine: 1, totalLines: 200 } };
    entry({ type: 'user', message: { role: 'user', content: [{ tool_use_id: callId, type: 'tool_result', content: half }] }, toolUseResult: result });
    if (n % 7 === 0) lines.push('{"type":"assistant","message":{"role":'); // junk line
  }
  t += 2_000;
  const last = { model: 'claude-sonnet-4-5-20250929', id: `msg_end_${id}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done: the loader is refactored and tested.' }], stop_reason: 'end_turn', stop_sequence: null, usage: usageOf() };
  push({ parentUuid: parent, ...base, type: 'assistant', message: last, uuid: leaf, timestamp: new Date(t).toISOString() });
  return `${lines.join('\n')}\n`;
};

/** One Codex CLI rollout: session_meta with the instructions, turn contexts, reasoning with encrypted content, calls and outputs, token counts. */
const codexSession = (ctx) => {
  const { rand, text, cwd, id, start, bytes, huge } = ctx;
  const lines = [];
  let size = 0;
  let t = start;
  const push = (type, payload) => {
    const line = JSON.stringify({ timestamp: new Date(t).toISOString(), type, payload });
    lines.push(line);
    size += line.length + 1;
  };
  push('session_meta', { id, timestamp: new Date(t).toISOString(), cwd, originator: 'codex_cli_rs', cli_version: '0.116.0', source: 'cli', model_provider: 'openai', base_instructions: { text: slice(rand, text, 12_000) }, git: { branch: 'main', commit_hash: 'a'.repeat(40) } });
  push('turn_context', { cwd, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: 'gpt-5.2-codex', effort: 'medium', summary: 'auto' });
  push('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Why does invoice rounding fail for JPY?' }] });
  push('event_msg', { type: 'user_message', message: 'Why does invoice rounding fail for JPY?', images: [] });
  let n = 0;
  let input = 0;
  let big = huge;
  while (size < bytes || big) {
    n += 1;
    t += 1_000 + Math.floor(rand() * 15_000);
    const callId = `call_${n}_${id.slice(0, 6)}`;
    const tool = CODEX_TOOLS[Math.floor(rand() * CODEX_TOOLS.length)];
    push('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: slice(rand, text, 100 + Math.floor(rand() * 400)) }], content: null, encrypted_content: base64ish(rand, 1_000 + Math.floor(rand() * 3_000)) });
    push('event_msg', { type: 'agent_reasoning', text: slice(rand, text, 100 + Math.floor(rand() * 400)) });
    push('response_item', { type: 'function_call', name: tool, arguments: JSON.stringify({ cmd: 'rg -n round internal/invoice', workdir: cwd }), call_id: callId });
    let chars = outputChars(rand);
    if (big && size + chars >= bytes) {
      chars = hugeChars(rand);
      big = false;
    }
    push('response_item', { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: slice(rand, text, chars), metadata: { exit_code: 0, duration_seconds: 0.4 } }) });
    input += 3_000 + Math.floor(rand() * 4_000);
    const usage = { input_tokens: input, cached_input_tokens: Math.floor(input * 0.7), output_tokens: n * 200, reasoning_output_tokens: n * 60, total_tokens: input + n * 260 };
    push('event_msg', { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage, model_context_window: 272_000 }, rate_limits: { primary: { used_percent: 12.5, window_minutes: 300, resets_in_seconds: 4_000 } } });
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
    const id = uuidOf(rand).slice(0, 8);
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
    entry('message', { message: { role: 'assistant', content: [{ type: 'text', text: slice(rand, text, 40 + Math.floor(rand() * 400)) }, { type: 'toolCall', id: callId, name: tool, arguments: { path: `${cwd}/notes${n % 9}.md` } }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 40, output: 58, cacheRead: 2920, cacheWrite: 0, totalTokens: 3018, cost: { input: 0.00012, output: 0.00087, cacheRead: 0.000876, cacheWrite: 0, total: 0.001866 } }, stopReason: 'toolUse', timestamp: t } });
    entry('message', { message: { role: 'toolResult', toolCallId: callId, toolName: tool, content: [{ type: 'text', text: slice(rand, text, outputChars(rand)) }], isError: false, timestamp: t + 200 } });
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
export const ensureCorpus = ({ root, sessions, meanKb, now = Date.UTC(2026, 10, 20, 12), spreadDays = 30 }) => {
  const manifestPath = path.join(root, 'manifest.json');
  const params = { version: 5, sessions, meanKb, now, ...(spreadDays === 30 ? {} : { spreadDays }) };
  const spreadMs = spreadDays * 86_400_000;
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
    // Most sessions are days old (spread over `spreadDays`); one in 25 is from the last half hour.
    const start = now - (i % 25 === 0 ? Math.floor(rand() * 1_800_000) : Math.floor(rand() * spreadMs)) - 3_600_000;
    const ctx = { rand, text, cwd, id: uuidOf(rand), start, bytes: sessionBytes(rand, meanKb), sidechain: false, huge: i % HUGE_EVERY === 5, oversized: i % OVERSIZED_EVERY === 11 };
    if (kind === 'claude') {
      const dir = path.join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
      write(path.join(dir, `${ctx.id}.jsonl`), claudeSession(ctx));
      if (i % 10 === 0) write(path.join(dir, ctx.id, 'subagents', `agent-${ctx.id.slice(0, 8)}.jsonl`), claudeSession({ ...ctx, id: ctx.id, sidechain: true, bytes: 8_000, huge: false, oversized: false }));
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
    const start = now - Math.floor(rand() * spreadMs) - 3_600_000;
    for (const make of [ampThread, grokSession, kimiSession]) {
      const session = { id: uuidOf(rand), cwd: `/bench/work/proj-${i % 97}`, start, turns, filler };
      for (const [file, content] of make(session)) write(path.join(home, file), content);
    }
  }
  expected.amp = expected.grok = expected.kimi = extra;
  const dbs = [];
  for (const agent of ['opencode', 'kilo']) {
    const file = path.join(dataHome(home), agent, `${agent}.db`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFamilyDb({ file, agent, sessions: extra, turns, filler, start: (s) => now - (s % 5 === 0 ? 3_600_000 : 86_400_000 * (1 + (s % (spreadDays - 1)))) });
    dbs.push(file);
    expected[agent] = extra;
  }
  const cursorDb = path.join(configHome(home), 'Cursor', 'User', 'globalStorage', 'state.vscdb');
  dbs.push(cursorDb);
  expected.cursor = extra;
  const manifest = { params, home, files: files.length, bytes, dbs, expected, cursor: { file: cursorDb, composers: extra * 4, recent: extra, bubbles: Math.min(60, 2 * turns), filler } };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(root, 'files.txt'), files.join('\n'));
  writeFileSync(path.join(root, 'claude-files.txt'), files.filter((file) => file.startsWith(path.join(home, '.claude', 'projects') + path.sep)).join('\n'));
  writeFileSync(path.join(root, 'dbs.txt'), dbs.join('\n'));
  return manifest;
};

const RECENT_DAYS = 5;
const startOfTodayUtc = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};

/**
 * A corpus for the monitor benches (idle, SSE, API): its sessions lie within the last RECENT_DAYS
 * days of the day it is generated on (it is regenerated the next day), so a 7-day window lists
 * every session it holds, as a user's week of sessions would be.
 */
export const ensureRecentCorpus = (options) => ensureCorpus({ ...options, now: startOfTodayUtc(), spreadDays: RECENT_DAYS });

/** (Re)writes the Cursor database with times relative to `now`, so its sessions are inside the 48 h window. */
export const refreshCursor = (manifest, now = Date.now()) => {
  const { file, ...shape } = manifest.cursor;
  mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  writeCursorDb({ file, ...shape, now });
};
