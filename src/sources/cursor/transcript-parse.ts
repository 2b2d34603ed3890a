// The Cursor Agent transcript format this parser was checked against: docs/formats/cursor.md.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine } from '../internal/line-helpers.js';
import { valueKey } from '../internal/skim.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { cursorResumeCommand } from './descriptor.js';
import { writtenFile } from './tools.js';
import type { CursorTranscriptFile } from './transcript-paths.js';
import { cursorTranscriptLineSchema, type CursorTranscriptBlock } from './transcript-schema.js';

const agent = 'cursor';
const TEXT_KEYS = [valueKey('text')];
/** Content blocks of transcript messages; others are unknown_record. */
const KNOWN_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'image', 'tool_use']);
/** The wrapper Cursor puts around what the user typed. */
const USER_QUERY = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/;

/** The file's modification time: the transcript records no times of its own. */
const mtimeOf = (file: string): number => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

const textOf = (content: string | readonly CursorTranscriptBlock[] | undefined): string =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('\n');

/**
 * The line parser of one Cursor Agent transcript (docs/formats/cursor.md). The lines carry no
 * time, no id and no tool output: each line is taken at the file's modification time when read
 * (a transcript read as it grows gets the time each line was written; one read later gets its
 * last write), a tool call is done when the next line comes, and `turn_ended` hands the turn
 * back to the user. The working directory is the first `working_directory` a tool was given,
 * else the folder name turned back into an existing path (`workspace`).
 */
export const createCursorTranscriptParser = (
  file: string,
  where: CursorTranscriptFile,
  workspace: () => string | undefined,
  resumed: boolean,
  restored?: SessionState,
  born?: number,
  timeOf: (file: string) => number = mtimeOf,
): FileParser => {
  const { sessionId } = where;
  const ref = { agent, sessionId } as const;
  const loc = { sessionId, path: file };
  let sawCreated = resumed && (restored === undefined || restored.createdAt > 0);
  let cwd = resumed ? restored?.cwd : undefined;
  // Calls not yet followed by another line: the next line is their result.
  let open = resumed ? (restored?.pendingTools.length ?? 0) : 0;
  const unknown = createUnknownRecords(agent, 'Cursor Agent');

  const meta = (patch: SessionMetaPatch, at: number): SessionEvent[] => (Object.keys(patch).length > 0 ? [{ type: 'meta', ...ref, at, patch }] : []);
  const closeOpen = (at: number, isError = false): SessionEvent[] => {
    const results = Array.from({ length: open }, (): SessionEvent => ({ type: 'tool_result', ...ref, at, isError }));
    open = 0;
    return results;
  };

  return {
    sessionId: () => sessionId,
    start: () => {
      const found = cwd ?? workspace();
      if (found) cwd = found;
      const patch: SessionMetaPatch = {
        path: file,
        source: 'cli',
        ...(found ? { cwd: found } : {}),
        ...(where.parentId ? { isSidechain: true, parentId: where.parentId } : { resumeCommand: cursorResumeCommand(sessionId) }),
      };
      return [{ type: 'meta', ...ref, patch }];
    },
    line: (bytes) => {
      const decoded = decodeLine(agent, cursorTranscriptLineSchema, bytes, loc, TEXT_KEYS);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      const r = decoded.value;
      const at = timeOf(file);
      const created: SessionMetaPatch = !sawCreated && at > 0 ? ((sawCreated = true), { createdAt: born !== undefined && born > 0 && born <= at ? born : at }) : {};
      const head = meta(created, at);
      if (r.type === 'turn_ended') {
        const failed = r.status !== undefined && r.status !== 'success';
        // The agent stopped: an uncounted answer hands the turn back.
        return [...head, ...closeOpen(at, failed), { type: 'turn', ...ref, at, role: 'assistant', counts: false }];
      }
      const content = r.message?.content;
      const blocks = Array.isArray(content) ? content : [];
      const strange = blocks.flatMap((b) => (KNOWN_BLOCKS.has(b.type) ? [] : unknown.once(`block:${b.type}`, `content block "${b.type}"`, loc)));
      switch (r.role) {
        case 'user': {
          const text = textOf(content);
          return [...head, ...strange, ...closeOpen(at), { type: 'turn', ...ref, at, role: 'user', text: USER_QUERY.exec(text)?.[1] ?? text }];
        }
        case 'assistant': {
          const events: SessionEvent[] = [...head, ...strange, ...closeOpen(at)];
          const text = textOf(content);
          if (text.trim() !== '') events.push({ type: 'turn', ...ref, at, role: 'assistant', text });
          const calls = blocks.filter((b) => b.type === 'tool_use' && b.name);
          for (const call of calls) {
            const dir = call.input?.working_directory;
            if (cwd === undefined && typeof dir === 'string' && path.isAbsolute(dir)) events.push(...meta({ cwd: (cwd = dir) }, at));
            const written = writtenFile(call.name ?? '', call.input, undefined, cwd);
            events.push({ type: 'tool_call', ...ref, at, name: call.name ?? '', ...(written ? { filePath: written } : {}) });
            open++;
          }
          if (text.trim() === '' && calls.length === 0) events.push({ type: 'thinking', ...ref, at });
          return events;
        }
        default:
          return [...head, ...unknown.once(`line:${r.type ?? r.role ?? ''}`, `transcript line "${r.type ?? r.role ?? ''}"`, loc)];
      }
    },
  };
};
