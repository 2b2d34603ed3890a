import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { decodeCwdDir, grokMeta, grokSummaryTime, parseGrokLine, stampGrokBatch } from '../../../src/sources/grok/parse.js';
import { grokSummarySchema } from '../../../src/sources/grok/schema.js';

const SESSIONS = fileURLToPath(new URL('../../../fixtures/grok/.grok/sessions/', import.meta.url));
const MAIN = `${SESSIONS}%2Fhome%2Fdev%2Fparser/0199e0aa-1111-7000-8000-00000000c0de`;
const SUB = `${SESSIONS}%2Fhome%2Fdev%2Fparser/0199e0aa-2222-7000-8000-0000000005ab`;
const SITE = `${SESSIONS}%2Fhome%2Fdev%2Fmy%20site/0199e0bb-4444-7000-8000-0000000071e5`;

const summaryOf = (dir: string) => grokSummarySchema.parse(JSON.parse(readFileSync(`${dir}/summary.json`, 'utf8')));

/** Complete lines of a transcript (the unterminated tail is still being written). */
const completeLines = (dir: string): string[] => {
  const text = readFileSync(`${dir}/chat_history.jsonl`, 'utf8');
  return text.slice(0, text.lastIndexOf('\n')).split('\n');
};

const shape = (events: readonly SessionEvent[]) =>
  events.map((e) =>
    e.type === 'turn'
      ? `${e.role}@${e.at}: ${e.text ?? ''}`
      : e.type === 'tool_call'
        ? `call ${e.name}#${e.callId ?? ''}@${e.at}${e.filePath ? ` -> ${e.filePath}` : ''}`
        : e.type === 'tool_result'
          ? `result #${e.callId ?? ''}@${e.at}`
          : e.type,
  );

describe('parseGrokLine', () => {
  it('turns the transcript into real prompts, answers, calls and results; junk is a diagnostic, an unknown record type is named for the unknown_record count', () => {
    const results = completeLines(MAIN).map((line) => parseGrokLine(line, 'g1', 5));
    const failures = results.flatMap((r) => (r.ok ? [] : [r.code]));
    expect(failures).toEqual(['E_JUNK_LINE']);
    expect(results.flatMap((r) => (r.ok && r.unknown ? [r.unknown.key] : []))).toEqual(['hologram']);
    const events = results.flatMap((r) => (r.ok ? r.events : []));
    expect(shape(events)).toEqual([
      // <user_info> and <system-reminder> entries are injected context, not prompts.
      'user@5: Unicode escapes like \\u00e9 are decoded wrong',
      'call bash#call-7a1@5',
      'result #call-7a1@5',
      'assistant@5: The lexer reads only 2 hex digits; it needs 4. Want me to patch it?',
    ]);
  });

  it('names the file a write tool writes, from its JSON-string arguments', () => {
    const events = completeLines(SITE).flatMap((line) => {
      const r = parseGrokLine(line, 'g4');
      return r.ok ? r.events : [];
    });
    expect(shape(events)).toEqual([
      'user@0: Write index.html with a hero section',
      'assistant@0: Writing it now.',
      'call write_file#call-w1@0 -> /home/dev/my site/index.html',
    ]);
  });

  it('an entry Grok injects itself (synthetic_reason) is not a prompt, even without a tag', () => {
    const r = parseGrokLine('{"type":"user","synthetic_reason":"task_completed","content":[{"type":"text","text":"Sub-agent finished: 3 files changed"}]}', 'g', 9);
    expect(r.ok && r.events).toEqual([]);
  });

  it('a backend_tool_call (the model searching server-side, inside one answer) is a known record that shows nothing', () => {
    const r = parseGrokLine('{"type":"backend_tool_call","id":"ws_1","name":"web_search","arguments":"{\\"query\\":\\"rfc 8259\\"}"}', 'g', 9);
    expect(r).toEqual({ ok: true, events: [] });
  });

  it('treats an answer with no text and no calls as an answer', () => {
    const r = parseGrokLine('{"type":"assistant","content":""}', 'g', 9);
    expect(r.ok && shape(r.events)).toEqual(['assistant@9: ']);
  });
});

describe('stampGrokBatch', () => {
  it('keeps the time only on the last turn and the last tool record of a batch', () => {
    const events = completeLines(MAIN).flatMap((line) => {
      const r = parseGrokLine(line, 'g1');
      return r.ok ? r.events : [];
    });
    expect(shape(stampGrokBatch(events, 777))).toEqual([
      'user@0: Unicode escapes like \\u00e9 are decoded wrong',
      'call bash#call-7a1@0',
      'result #call-7a1@777',
      'assistant@777: The lexer reads only 2 hex digits; it needs 4. Want me to patch it?',
    ]);
  });
});

describe('grokMeta', () => {
  it('reads id, cwd, model, branch, title, creation time and the resume command from summary.json', () => {
    expect(grokMeta(summaryOf(MAIN), MAIN)).toEqual({
      source: 'cli',
      path: `${MAIN}/chat_history.jsonl`,
      cwd: '/home/dev/parser',
      isSidechain: false,
      resumeCommand: 'grok --resume 0199e0aa-1111-7000-8000-00000000c0de',
      model: 'grok-build',
      gitBranch: 'fix/escapes',
      agentName: 'Fix JSON parser escape bug',
      createdAt: Date.parse('2026-03-10T09:40:00.260953Z'),
      // Grok records its chat format, not the CLI version.
      version: 'chat format 1',
    });
    expect(grokSummaryTime(summaryOf(MAIN))).toBe(Date.parse('2026-03-10T09:41:12.449Z'));
  });

  it('marks sub-agents as sidechains without a resume command and falls back to the session summary as title', () => {
    const meta = grokMeta(summaryOf(SUB), SUB);
    expect(meta).toMatchObject({ isSidechain: true, resumeCommand: '', agentName: 'look for other escape decoders' });
  });

  it('decodes the cwd from the directory name when summary.json has none, and falls back to updated_at', () => {
    expect(grokMeta(summaryOf(SITE), SITE).cwd).toBe('/home/dev/my site');
    expect(grokSummaryTime(summaryOf(SITE))).toBe(Date.parse('2026-03-10T12:03:00Z'));
    expect(decodeCwdDir('%2Fbad%zz')).toBe('%2Fbad%zz');
  });
});

describe('grokSessionDirOf', () => {
  it('maps a session directory and the files read (summary, transcript, updates) to the directory, and nothing else', async () => {
    const { grokSessionDirOf, grokSessionsDir } = await import('../../../src/sources/grok/paths.js');
    const s = '/h/.grok/sessions';
    expect(grokSessionsDir({ HOME: '/h' })).toBe(s);
    expect(grokSessionsDir({ HOME: '/h', GROK_HOME: '/g' })).toBe('/g/sessions');
    expect(grokSessionDirOf(s, `${s}/%2Fw/u-1`)).toBe(`${s}/%2Fw/u-1`);
    expect(grokSessionDirOf(s, `${s}/%2Fw/u-1/summary.json`)).toBe(`${s}/%2Fw/u-1`);
    expect(grokSessionDirOf(s, `${s}/%2Fw/u-1/chat_history.jsonl`)).toBe(`${s}/%2Fw/u-1`);
    expect(grokSessionDirOf(s, `${s}/%2Fw/u-1/updates.jsonl`)).toBe(`${s}/%2Fw/u-1`);
    expect(grokSessionDirOf(s, `${s}/%2Fw/u-1/events.jsonl`)).toBeUndefined();
    expect(grokSessionDirOf(s, `${s}/%2Fw/prompt_history.jsonl`)).toBeUndefined();
    expect(grokSessionDirOf(s, `${s}/session_search.sqlite`)).toBeUndefined();
    expect(grokSessionDirOf(s, `${s}/%2Fw`)).toBeUndefined();
  });
});
