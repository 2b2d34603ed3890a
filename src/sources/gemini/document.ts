import { z } from 'zod';
import type { SessionEvent } from '../../core/session.js';
import { diagnostic, type DocumentRead, type FileParser } from '../internal/file-parser.js';
import { epochMs } from '../internal/line-helpers.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import type { GeminiFileKind } from './paths.js';
import { createGeminiRecords, type GeminiDialect } from './records.js';

const optionalString = z.string().optional().catch(undefined);

/**
 * A chat of the single-document form (docs/formats/gemini.md): the header's fields and every
 * message in `messages`, rewritten whole on each change. Each message is checked as a row.
 */
const chatDocumentSchema = z
  .object({
    sessionId: z.string().min(1),
    projectHash: optionalString,
    startTime: optionalString,
    lastUpdated: optionalString,
    summary: optionalString,
    messages: z.array(z.unknown()),
  })
  .loose();

/**
 * The parser of one single-document chat (`session-<time>-<id8>.json`): each complete version of
 * the document is the whole session, replayed from its first message (the engine resets the
 * session before it). What a version holds that is not known is counted once per file.
 */
export const createChatDocumentParser = (file: string, kind: GeminiFileKind, cwd: string | undefined, dialect: GeminiDialect): FileParser => {
  const { agent, product } = dialect;
  let sessionId = kind.provisionalId;
  const unknown = createUnknownRecords(agent, product);

  const failed = (code: 'E_JUNK_LINE' | 'E_SCHEMA', why: string): DocumentRead => ({
    ok: false,
    events: [diagnostic(agent, code, `${why}; the last complete version stays until the file is written again`, { sessionId, path: file })],
  });

  const document = (bytes: Buffer): DocumentRead => {
    // Just truncated for a rewrite: nothing written yet, nothing to count.
    if (bytes.toString('utf8').trim() === '') return { ok: false, events: [] };
    let raw: unknown;
    try {
      raw = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      // The CLI rewrites the file in place: a read can land while it is half written.
      return failed('E_JUNK_LINE', `not a complete JSON document (${(error as Error).message})`);
    }
    const parsed = chatDocumentSchema.safeParse(raw);
    if (!parsed.success) return failed('E_SCHEMA', `not a ${product} chat: ${parsed.error.issues[0]?.path.join('.') || 'document'} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd());
    const chat = parsed.data;
    sessionId = chat.sessionId;
    const records = createGeminiRecords({ file, kind: { ...kind, provisionalId: sessionId }, cwd, dialect, unknown, started: false, model: undefined, seen: new Set() });
    const createdAt = epochMs(chat.startTime);
    const events: SessionEvent[] = records.startEvents(createdAt > 0 ? { createdAt } : {}, createdAt || undefined);
    let shapeless = 0;
    for (const message of chat.messages) {
      const some = records.rowEvents(message);
      if (some.length === 0 && !isMessage(message)) shapeless += 1;
      events.push(...some);
    }
    if (shapeless > 0) events.push(...unknown.once('shape:message', 'a message without an id or a type', { sessionId, path: file }));
    if (chat.summary !== undefined) events.push(...records.setEvents({ summary: chat.summary }, epochMs(chat.lastUpdated)));
    return { ok: true, events };
  };

  return { sessionId: () => sessionId, start: () => [], line: () => [], document };
};

const isMessage = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  const { id, type } = value as { id?: unknown; type?: unknown };
  return typeof id === 'string' && typeof type === 'string';
};
