import type { SessionEvent, SessionState } from '../../core/session.js';
import type { Source } from '../contracts.js';
import { readyWhenAll } from '../internal/ready-when-all.js';
import { createJsonlSource, type EngineOptions } from '../internal/jsonl-source.js';
import type { SourceCtx } from '../internal/options.js';
import { diagnostic, type FileParser, type JsonlAgentSpec } from '../internal/file-parser.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { kimiResumeCommand } from './descriptor.js';
import { KIMI_START, parseKimiLine, type KimiParseState } from './parse.js';
import { kimiParseBytes, skimKimiLine } from './skim.js';
import { classifyKimiFile, kimiRoot, kimiSessionsDir, KIMI_WIRE_DEPTH } from './paths.js';
import { kimiSideFiles } from './side-files.js';
import { kimiLegacySpec } from './legacy.js';
import { createSideTextReader } from '../internal/side-text.js';

/**
 * Kimi Code: one directory per session, `agents/main/wire.jsonl` read incrementally (legacy and
 * native encodings), `state.json` for the title, `session_index.jsonl` for the cwd. Sub-agent
 * streams (`agents/<id>/wire.jsonl`) are folded as hidden sidechains of their session.
 */
export const kimiSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const root = kimiRoot(ctx.env);
  const sessionsDir = kimiSessionsDir(root);
  let cwdBySession: ReadonlyMap<string, string> = new Map();

  const createParser = (file: string, sessionId: string, resumed: boolean, restored?: SessionState): FileParser => {
    const kind = classifyKimiFile(sessionsDir, file) ?? { sessionId, parentId: sessionId, isSubagent: false };
    const ref = { agent: 'kimi', sessionId } as const;
    // Records without a time inherit the last one: resumed (a warm start, a parked file), that is
    // the restored session's; so are the wire version and the folder relative paths are in.
    const from = resumed ? restored : undefined;
    let state: KimiParseState = from
      ? { clock: from.lastActivityAt, ...(from.version ? { version: from.version } : {}), ...(from.cwd ? { cwd: from.cwd } : {}) }
      : KIMI_START;
    const unknown = createUnknownRecords('kimi', 'Kimi Code wire protocol');
    return {
      sessionId: () => sessionId,
      start: (): SessionEvent[] => [
        {
          ...ref,
          type: 'meta',
          patch: kind.isSubagent
            ? { source: 'cli', path: file, isSidechain: true, parentId: kind.parentId, ...(cwdBySession.get(kind.parentId) ? { cwd: cwdBySession.get(kind.parentId) } : {}) }
            : { source: 'cli', path: file, resumeCommand: kimiResumeCommand(sessionId) },
        },
      ],
      line: (bytes) => {
        let result = skimKimiLine(state, bytes, ref);
        if (result === undefined) {
          const text = kimiParseBytes(bytes).toString('utf8');
          if (!text.trim()) return [];
          result = parseKimiLine(state, text, ref, cwdBySession.get(kind.parentId) ?? '');
        }
        state = result.state;
        if (!result.ok) return [diagnostic('kimi', result.code, result.message, { sessionId, path: file })];
        if (!result.unknown) return result.events as SessionEvent[];
        const where = { sessionId, path: file, ...(state.version ? { version: state.version } : {}) };
        return [...unknown.once(result.unknown.key, result.unknown.what, where), ...result.events];
      },
    };
  };

  return {
    agent: 'kimi',
    roots: [{ dir: sessionsDir, depth: KIMI_WIRE_DEPTH }],
    classify: (_root, file) => classifyKimiFile(sessionsDir, file)?.sessionId,
    // Sub-agent prompts and outputs (`subagents/<id>/`) are not wire streams.
    skipDir: (name) => name === 'subagents',
    createParser,
    sideFiles: kimiSideFiles(root, (map) => (cwdBySession = map), createSideTextReader('kimi', ctx.cache)),
  };
};

/**
 * Kimi Code's sessions and, when there is one, the Kimi CLI's `~/.kimi` tree beside them, as one
 * source. `options.read` tunes the tail reader (tests use a small line cap).
 */
export const createKimiSource =
  (options: EngineOptions = {}): Source =>
  (ctx) => {
    const code = createJsonlSource(kimiSpec, options)(ctx);
    const legacy = kimiLegacySpec(ctx);
    return legacy ? readyWhenAll([code, createJsonlSource(() => legacy, options)(ctx)]) : code;
  };

export const kimi: Source = createKimiSource();
