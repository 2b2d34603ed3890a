import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { KIMI_START, parseKimiLine, type KimiParseState } from '../../../src/sources/kimi/parse.js';

const SESSIONS = fileURLToPath(new URL('../../../fixtures/kimi/.kimi-code/sessions/', import.meta.url));
const NATIVE = `${SESSIONS}wd_invoicer_5c1e9a/ses_01JNX7Q2/agents/main/wire.jsonl`;
const LEGACY = `${SESSIONS}wd_scripts_0b77d1/ses_legacy01/agents/main/wire.jsonl`;

/** The events of `lines`, parsed in order as one wire file (lines that fail are left out). */
const parseLines = (lines: readonly string[], cwd = '/w'): SessionEvent[] => {
  let state: KimiParseState = KIMI_START;
  const events: SessionEvent[] = [];
  for (const line of lines) {
    const r = parseKimiLine(state, line, { agent: 'kimi', sessionId: 's' }, cwd);
    state = r.state;
    if (r.ok) events.push(...r.events);
  }
  return events;
};

const parseFile = (file: string, cwd: string) => {
  const text = readFileSync(file, 'utf8');
  const lines = text.slice(0, text.lastIndexOf('\n')).split('\n');
  let state: KimiParseState = KIMI_START;
  const events: SessionEvent[] = [];
  const failures: string[] = [];
  for (const line of lines) {
    const r = parseKimiLine(state, line, { agent: 'kimi', sessionId: 's' }, cwd);
    state = r.state;
    if (r.ok) events.push(...r.events);
    else failures.push(r.code);
  }
  return { events, failures };
};

const shape = (events: readonly SessionEvent[]) =>
  events.map((e) => {
    switch (e.type) {
      case 'turn':
        return `${e.role}@${e.at}${e.counts === false ? ' (uncounted)' : ''}${e.text ? `: ${e.text}` : ''}`;
      case 'tool_call':
        return `call ${e.name}#${e.callId ?? ''}@${e.at}${e.filePath ? ` -> ${e.filePath}` : ''}`;
      case 'tool_result':
        return `result #${e.callId ?? ''}@${e.at}`;
      case 'usage':
        return `usage ${e.tokens.input}/${e.tokens.output}/${e.tokens.cacheCreation}/${e.tokens.cacheRead}`;
      case 'compaction':
        return `compaction ${e.phase}@${e.at}`;
      case 'meta':
        return `meta ${JSON.stringify(e.patch)}`;
      default:
        return e.type;
    }
  });

describe('parseKimiLine', () => {
  it('a user-role message Kimi Code injects (origin kind other than user) is neither a prompt nor a turn', () => {
    const message = (text: string, origin?: object) =>
      JSON.stringify({ type: 'context.append_message', message: { role: 'user', content: [{ type: 'text', text }], toolCalls: [], ...(origin ? { origin } : {}) }, time: 7 });
    const lines = [
      message('Tidy up the repo layout', { kind: 'user' }),
      message('<system-reminder> Plan mode is active.</system-reminder>', { kind: 'injection', variant: 'plan_mode' }),
      message('an older release wrote no origin'),
    ];
    const events = parseLines(lines);
    expect(shape(events)).toEqual(['user@7: Tidy up the repo layout', 'user@7: an older release wrote no origin']);
  });

  it('counts turn-scoped usage records and skips session-scoped ones (a running total of the turns before)', () => {
    const usage = (scope: string | undefined, input: number) =>
      JSON.stringify({ type: 'usage.record', model: 'kimi-code/kimi-for-coding', usage: { inputOther: input, output: 10, inputCacheRead: 0, inputCacheCreation: 0 }, ...(scope ? { usageScope: scope } : {}), time: 5 });
    const lines = [usage('turn', 100), usage('turn', 200), usage('session', 300), usage(undefined, 40)];
    const events = parseLines(lines);
    expect(shape(events)).toEqual(['usage 100/10/0/0', 'usage 200/10/0/0', 'usage 40/10/0/0']);
  });

  it('reads the native encoding: loop events, usage records, turn end; times inherited from the line before', () => {
    const { events, failures } = parseFile(NATIVE, '/home/dev/invoicer');
    expect(failures).toEqual([]);
    expect(shape(events)).toEqual([
      'meta {"version":"0.11.0","createdAt":1773136300000}',
      'meta {"model":"kimi-code/kimi-for-coding"}',
      // turn.prompt repeats the prompt: only the context message counts; it has no time of its own.
      'user@1773136301000: Add PDF export to invoices',
      'call Write#tc_1@1773136304000 -> /home/dev/invoicer/export/pdf.go',
      'result #tc_1@1773136304300',
      'usage 5400/380/0/12000',
      'call Agent#tc_2@1773136305000',
      'result #tc_2@1773136350000',
      'assistant@1773136352000: Created export/pdf.go with a stub exporter and tests.',
      'assistant@1773136352100 (uncounted)',
      'usage 800/120/0/17400',
      'assistant@1773136352200 (uncounted)',
    ]);
  });

  it('reads the legacy import encoding, compaction begin/end, and counts junk as diagnostics', () => {
    const { events, failures } = parseFile(LEGACY, '/home/dev/scripts');
    expect(failures).toEqual(['E_SCHEMA']);
    expect(shape(events)).toEqual([
      'meta {"version":"1.1","createdAt":1773075600000}',
      'user@1773075601000: Write a script that prunes old logs',
      'call WriteFile#tool-1@1773075601000 -> /home/dev/scripts/prune.sh',
      'result #tool-1@1773075601000',
      'assistant@1773075601000: prune.sh deletes logs older than a week.',
      'compaction start@1773075700000',
      'compaction end@1773075705000',
      'user@1773075710000: Also gzip the ones older than a day',
      'call Shell#tool-2@1773075711000',
    ]);
  });

  it('never lets a record without a time rewind the clock, and keeps absolute paths as they are', () => {
    const ref = { agent: 'kimi', sessionId: 's' } as const;
    const first = parseKimiLine(KIMI_START, '{"type":"turn.end","time":500}', ref);
    const second = parseKimiLine(first.state, '{"type":"context.append_loop_event","event":{"type":"tool.call","name":"Edit","args":{"path":"/abs/x.go"}},"time":100}', ref);
    expect(second.ok && shape(second.events)).toEqual(['call Edit#@500 -> /abs/x.go']);
  });

  it('skips record types it does not know (naming them for the unknown_record count), and flags a known type with a broken body', () => {
    const ref = { agent: 'kimi', sessionId: 's' } as const;
    expect(parseKimiLine(KIMI_START, '{"type":"telemetry.flush","time":3}', ref)).toEqual({
      ok: true,
      state: { clock: 3 },
      events: [],
      unknown: { key: 'telemetry.flush', what: 'wire record type "telemetry.flush"' },
    });
    // Types Kimi Code writes that carry nothing for agentwatch are known: no count.
    expect(parseKimiLine(KIMI_START, '{"type":"llm.request","time":4}', ref)).toEqual({ ok: true, state: { clock: 4 }, events: [] });
    const broken = parseKimiLine(KIMI_START, '{"type":"context.append_message","message":"oops"}', ref);
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.message).toMatch(/^bad context\.append_message record/);
    expect(parseKimiLine(KIMI_START, '{"type":', ref)).toMatchObject({ ok: false, code: 'E_JUNK_LINE' });
  });

  it('reads the model (and cwd) an agent-core v2 agent is bound to from profile.bind: no config.update follows unless it changes', () => {
    const ref = { agent: 'kimi', sessionId: 's' } as const;
    const bind = JSON.stringify({
      type: 'profile.bind',
      agentId: 'main',
      modelAlias: 'kimi-code/kimi-for-coding',
      profileName: 'agent',
      thinkingEffort: 'high',
      systemPrompt: 'You are Kimi Code.',
      environmentDisclosure: { cwd: '/home/dev/app', date: { disclosed: false } },
      disallowedTools: [],
      time: 1785600000100,
    });
    const r = parseKimiLine(KIMI_START, bind, ref);
    expect(r.ok && shape(r.events)).toEqual(['meta {"model":"kimi-code/kimi-for-coding","cwd":"/home/dev/app"}']);
    expect(r.ok && r.unknown).toBeUndefined();
    // A bind without a model names nothing.
    const bare = parseKimiLine(KIMI_START, '{"type":"profile.bind","agentId":"main","time":5}', ref);
    expect(bare.ok && bare.events).toEqual([]);
  });

  it('counts an empty user message as a turn but not as a message', () => {
    const ref = { agent: 'kimi', sessionId: 's' } as const;
    const r = parseKimiLine(KIMI_START, '{"type":"context.append_message","message":{"role":"user","content":[]},"time":7}', ref);
    expect(r.ok && shape(r.events)).toEqual(['user@7 (uncounted)']);
  });
});
