/**
 * The six agents of the bench corpus that are not claude/codex/pi: amp thread documents, grok
 * session directories, kimi wire streams (files), and opencode/kilo SQLite databases and a Cursor
 * state.vscdb. Shapes follow fixtures/<agent>/ and the parsers in src/sources/<agent>/ (the same
 * records bench/amp-grok-kimi.mjs and bench/sqlite-poll.mjs feed the sources directly).
 *
 * Paths are those the sources look at with HOME=<home>, XDG_DATA_HOME=<home>/.local/share and
 * XDG_CONFIG_HOME=<home>/.config (set by bench/run.mjs).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { URL } from 'node:url';
import Database from 'better-sqlite3';

const fixture = (name) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

export const dataHome = (home) => path.join(home, '.local', 'share');
export const configHome = (home) => path.join(home, '.config');
/**
 * What every benchmark runs agentwatch with on a corpus: HOME, its config and data directories
 * inside it, the discovery cache and search index under `cacheHome`, PATH and no colors.
 */
export const homeEnv = (home, cacheHome) => ({
  HOME: home,
  XDG_CONFIG_HOME: configHome(home),
  XDG_CACHE_HOME: cacheHome,
  XDG_DATA_HOME: dataHome(home),
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  NO_COLOR: '1',
});

/** Amp: one JSON document per thread (threads/T-<id>.json), rewritten whole by Amp. */
export const ampThread = ({ id, cwd, start, turns, filler }) => {
  const messages = [];
  for (let t = 0; t < turns; t += 1) {
    const at = start + t * 20_000;
    messages.push({ role: 'user', messageId: 4 * t, content: [{ type: 'text', text: `step ${t}: ${filler}` }], meta: { sentAt: at } });
    messages.push({ role: 'assistant', messageId: 4 * t + 1, content: [{ type: 'tool_use', id: `u${t}`, name: 'edit_file', input: { path: `file://${cwd}/f${t}.ts`, old_str: filler, new_str: filler } }], state: { type: 'complete', stopReason: 'tool_use' }, usage: { model: 'claude-sonnet-4-5', inputTokens: 100, outputTokens: 50, cacheCreationInputTokens: 0, cacheReadInputTokens: 1000, timestamp: new Date(at + 1_000).toISOString() } });
    messages.push({ role: 'user', messageId: 4 * t + 2, content: [{ type: 'tool_result', toolUseID: `u${t}`, run: { status: 'done', result: filler } }], meta: { sentAt: at + 2_000 } });
    messages.push({ role: 'assistant', messageId: 4 * t + 3, content: [{ type: 'text', text: filler }], state: { type: 'complete', stopReason: 'end_turn' }, meta: { sentAt: at + 3_000 } });
  }
  const file = path.join('.local', 'share', 'amp', 'threads', `T-${id}.json`);
  return [[file, JSON.stringify({ id: `T-${id}`, created: start, title: `thread ${id.slice(0, 8)}`, messages, env: { initial: { trees: [{ uri: `file://${cwd}` }] } } })]];
};

/** Grok: sessions/<url-encoded cwd>/<id>/summary.json + chat_history.jsonl. */
export const grokSession = ({ id, cwd, start, turns, filler }) => {
  const dir = path.join('.grok', 'sessions', encodeURIComponent(cwd), id);
  const lines = [JSON.stringify({ type: 'system', content: filler })];
  for (let t = 0; t < turns; t += 1) {
    lines.push(JSON.stringify({ type: 'user', content: [{ type: 'text', text: `<user_query>${filler}</user_query>` }] }));
    lines.push(JSON.stringify({ type: 'assistant', content: '', tool_calls: [{ id: `c${t}`, name: 'bash', arguments: JSON.stringify({ command: 'make test' }) }], reasoning: { text: filler, encrypted: 'x'.repeat(400), id: 'r' } }));
    lines.push(JSON.stringify({ type: 'tool_result', content: filler, tool_call_id: `c${t}` }));
    lines.push(JSON.stringify({ type: 'assistant', content: filler }));
  }
  const summary = { info: { id, cwd }, generated_title: `grok ${id.slice(0, 8)}`, last_active_at: new Date(start + turns * 20_000).toISOString(), chat_format_version: 1 };
  return [
    [path.join(dir, 'summary.json'), JSON.stringify(summary)],
    [path.join(dir, 'chat_history.jsonl'), `${lines.join('\n')}\n`],
  ];
};

/** Kimi: sessions/<wd_…>/<session>/state.json + agents/main/wire.jsonl. */
export const kimiSession = ({ id, cwd, start, turns, filler }) => {
  const dir = path.join('.kimi-code', 'sessions', `wd_${path.basename(cwd)}_abc`, `ses_${id}`);
  const lines = [JSON.stringify({ type: 'metadata', protocol_version: '1.3', created_at: start, app_version: '0.11.0' })];
  for (let t = 0; t < turns; t += 1) {
    const at = start + t * 20_000;
    lines.push(JSON.stringify({ type: 'turn.prompt', input: [{ type: 'text', text: filler }], time: at }));
    lines.push(JSON.stringify({ type: 'context.append_message', message: { role: 'user', content: [{ type: 'text', text: filler }] } }));
    lines.push(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: `t${t}`, name: 'Write', args: { file_path: `f${t}.ts`, content: filler } }, time: at + 1_000 }));
    lines.push(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'tool.result', toolCallId: `t${t}`, result: { output: filler } }, time: at + 2_000 }));
    lines.push(JSON.stringify({ type: 'usage.record', usage: { inputOther: 100, output: 50, inputCacheRead: 1000, inputCacheCreation: 0 }, time: at + 3_000 }));
    lines.push(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'content.part', part: { type: 'text', text: filler } }, time: at + 4_000 }));
    lines.push(JSON.stringify({ type: 'turn.end', time: at + 5_000 }));
  }
  return [
    [path.join(dir, 'state.json'), JSON.stringify({ title: `kimi ${id.slice(0, 8)}` })],
    [path.join(dir, 'agents', 'main', 'wire.jsonl'), `${lines.join('\n')}\n`],
  ];
};

/**
 * An opencode.db or kilo.db (same family, kilo has a few more columns) with `sessions` sessions of
 * `turns` user/assistant message pairs, each with text, tool and step-finish parts. WAL, as both write it.
 */
export const writeFamilyDb = ({ file, agent, sessions, turns, filler, start }) => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(fixture(`${agent}/schema.sql`));
  db.prepare(agent === 'kilo' ? 'INSERT INTO project VALUES (?, ?, 0, 0)' : `INSERT INTO project VALUES (?, ?, 'git', 'w', 0, 0)`).run('p', '/bench/work/db');
  const insertSession = db.prepare(`INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'p', ?, ?, ?, '1.0.0', ?, ?)`);
  const insertMessage = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  const insertPart = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let s = 0; s < sessions; s += 1) {
      const base = start(s);
      const id = `ses_${agent}_${s}`;
      insertSession.run(id, `slug-${s}`, `/bench/work/proj-${s % 97}`, `Session ${s}`, base, base + turns * 20_000);
      for (let m = 0; m < 2 * turns; m += 1) {
        const at = base + m * 10_000;
        const role = m % 2 === 0 ? 'user' : 'assistant';
        const data = role === 'user' ? { role, time: { created: at } } : { role, modelID: 'claude-sonnet-4-5', providerID: 'anthropic', cost: 0.01, tokens: { input: 1000, output: 100, reasoning: 0, cache: { read: 5000, write: 0 } }, time: { created: at, completed: at + 5_000 }, finish: 'stop' };
        const msg = `msg_${s}_${m}`;
        insertMessage.run(msg, id, at, at, JSON.stringify(data));
        insertPart.run(`prt_${s}_${m}_a`, msg, id, at, at, JSON.stringify({ type: 'text', text: `${m}: ${filler}` }));
        if (role === 'assistant') {
          insertPart.run(`prt_${s}_${m}_b`, msg, id, at + 1, at + 1, JSON.stringify({ type: 'tool', tool: 'read', callID: `c${m}`, state: { status: 'completed', input: { filePath: '/bench/a.ts' }, output: filler, time: { start: at + 1, end: at + 2 } } }));
          insertPart.run(`prt_${s}_${m}_c`, msg, id, at + 3, at + 3, JSON.stringify({ type: 'step-finish' }));
        }
      }
    }
  })();
  db.close();
};

/**
 * Cursor's state.vscdb: `composers` composers (composerData + one bubbleId row per bubble).
 * Cursor sessions are listed only within 48 h, so times are relative to `now` and the file is
 * rewritten on every bench run; `recent` of them were updated an hour ago, the rest days ago.
 */
export const writeCursorDb = ({ file, composers, recent, bubbles, filler, now }) => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(fixture('cursor/schema.sql'));
  const put = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
  db.transaction(() => {
    for (let c = 0; c < composers; c += 1) {
      const id = `composer-${String(c).padStart(5, '0')}`;
      const updated = c < recent ? now - 3_600_000 - c * 1_000 : now - 10 * 86_400_000 - c * 3_600_000;
      const headers = Array.from({ length: bubbles }, (_, b) => ({ bubbleId: `b${b}`, type: b % 2 === 0 ? 1 : 2 }));
      put.run(`composerData:${id}`, JSON.stringify({ composerId: id, name: `Chat ${c}`, createdAt: updated - 60_000, lastUpdatedAt: updated, status: 'completed', fullConversationHeadersOnly: headers, context: { notes: filler } }));
      for (let b = 0; b < bubbles; b += 1) {
        put.run(`bubbleId:${id}:b${b}`, JSON.stringify({ bubbleId: `b${b}`, type: b % 2 === 0 ? 1 : 2, text: `${b}: ${filler}`, createdAt: new Date(updated - (bubbles - b) * 1_000).toISOString(), tokenCount: { inputTokens: 100, outputTokens: 10 } }));
      }
    }
  })();
  db.close();
};
