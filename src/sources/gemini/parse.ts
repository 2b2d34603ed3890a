// The Gemini CLI chat format this parser was checked against: docs/formats/gemini.md.
import type { SessionEvent, SessionState } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { valueKey } from '../internal/skim.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { geminiResumeCommand } from './descriptor.js';
import { idsBefore } from './ids-before.js';
import type { GeminiFileKind } from './paths.js';
import { createGeminiRecords, type GeminiDialect, type GeminiMessage } from './records.js';
import { geminiRowSchema } from './schema.js';

const agent = 'gemini';
/** Message text kept whole when a long line is parsed. */
const TEXT_KEYS = [valueKey('text'), valueKey('content')];

export const GEMINI_DIALECT: GeminiDialect = { agent, product: 'Gemini CLI', answer: 'gemini', resumeCommand: geminiResumeCommand };

/**
 * The line parser of one Gemini CLI chat file (docs/formats/gemini.md): the header names the
 * session; a message row counts the first time its id is seen, and its later copies add what
 * changed (usage, finished tool calls); `$set` gives the summary as the title.
 */
export const createGeminiParser = (file: string, kind: GeminiFileKind, cwd: string | undefined, resumed: boolean, restored?: SessionState): FileParser => {
  const unknown = createUnknownRecords(agent, GEMINI_DIALECT.product);
  const records = createGeminiRecords({
    file,
    kind,
    cwd,
    dialect: GEMINI_DIALECT,
    unknown,
    started: resumed,
    model: resumed ? restored?.model : undefined,
    // Resumed, the ids before the offset the warm start resumes from.
    seen: resumed ? idsBefore(file, restored?.checkpoint?.offset ?? 0) : new Set<string>(),
  });
  const where = () => ({ sessionId: records.sessionId(), path: file });

  const line = (bytes: Buffer): SessionEvent[] => {
    const decoded = decodeLine(agent, geminiRowSchema, bytes, where(), TEXT_KEYS);
    if (!decoded.ok) return decoded.event ? [decoded.event] : [];
    const row = decoded.value;
    if (row.$set) return records.setEvents(row.$set, epochMs(row.$set.lastUpdated));
    // A rewind drops turns from the conversation; what they cost was spent (docs/formats/gemini.md).
    if (row.$rewindTo !== undefined) return [];
    if (row.id !== undefined && row.type !== undefined) {
      const at = epochMs(row.timestamp);
      const undated = undatedRecord(agent, row.timestamp, at, where());
      return [...undated, ...records.startEvents(), ...records.message(row as GeminiMessage, at)];
    }
    if (row.sessionId !== undefined && row.projectHash !== undefined) {
      records.named(row.sessionId);
      const createdAt = epochMs(row.startTime);
      return records.startEvents(createdAt > 0 ? { createdAt } : {}, createdAt || undefined);
    }
    return unknown.once(`keys:${Object.keys(row).sort().join(',')}`, `row with keys ${Object.keys(row).sort().join(', ')}`, where());
  };

  return { sessionId: records.sessionId, start: () => [], line };
};
