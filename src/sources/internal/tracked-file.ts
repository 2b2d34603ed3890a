import type { Stats } from 'node:fs';
import type { DiagnosticCounts, SessionEvent, SessionState } from '../../core/session.js';
import type { CachedFile } from './cache.js';
import type { FileParser } from './file-parser.js';
import type { FileIdentity, FileTrackerDeps, Tracked } from './file-tracker-types.js';
import { restoredDiagnostics, withDiagnosticsOf } from './kept-diagnostics.js';

/**
 * How the tracker's record of one file begins: read from its first byte, resumed from the
 * discovery cache's row, or held as read to its end (a family's earlier file); and how the
 * diagnostics of its records are counted for its checkpoint.
 */
export const createTrackedFiles = (deps: Pick<FileTrackerDeps, 'agent' | 'emit' | 'createParser'>) => {
  const { agent, emit } = deps;

  /**
   * A diagnostic of `t`'s records: counted for its checkpoint, and named by the file and, when
   * known, the line (doctor shows both).
   */
  const located = (event: SessionEvent, t: Tracked): SessionEvent => {
    if (event.type !== 'diagnostic') return event;
    t.diagnostics = withDiagnosticsOf([event], t.diagnostics);
    return { ...event, path: event.path ?? t.file, ...(t.line !== undefined && event.line === undefined ? { line: t.line } : {}) };
  };

  /** A restored state's diagnostics: counted again, without reading its records. */
  const restoreDiagnostics = (t: Tracked, counts: DiagnosticCounts | undefined): void => {
    if (counts === undefined) return;
    t.diagnostics = counts;
    for (const event of restoredDiagnostics(agent, counts, { sessionId: t.sessionId, path: t.file })) emit(event);
  };

  const openFresh = (file: string, sessionId: string, info: FileIdentity): Tracked => {
    const parser = deps.createParser(file, sessionId, false, undefined, info.birthtimeMs);
    const t: Tracked = { file, sessionId: parser.sessionId(), parser, makeParser: () => parser, offset: 0, ino: info.ino, size: 0, mtimeMs: 0, line: 0, known: undefined, diagnostics: undefined, announced: false };
    for (const event of parser.start()) emit(event);
    return t;
  };

  /**
   * The parser that goes on from `state`, read up to `offset`. At offset 0 nothing was read (the
   * file was empty, or held half a first line): the parser starts at the first record, as a new
   * one does, or it would skip what only a file's first record says (codex's session_meta).
   */
  const resumeParser = (file: string, sessionId: string, offset: number, state: SessionState): FileParser => deps.createParser(file, sessionId, offset > 0, state);

  const restoreFrom = (file: string, cached: CachedFile, ino: number): Tracked => {
    emit({ type: 'restore', agent, sessionId: cached.sessionId, state: cached.state });
    const makeParser = (): FileParser => resumeParser(file, cached.sessionId, cached.offset, cached.state);
    const t: Tracked = { file, sessionId: cached.sessionId, parser: undefined, makeParser, offset: cached.offset, ino, size: cached.size, mtimeMs: cached.mtimeMs, line: undefined, known: cached.state, diagnostics: undefined, announced: true };
    restoreDiagnostics(t, cached.state.checkpoint?.diagnostics);
    return t;
  };

  /** A file of a family read before the one restored: held as read to its end, nothing emitted. */
  const quietlyTracked = (file: string, sessionId: string, info: Stats): Tracked => ({
    file,
    sessionId,
    parser: undefined,
    makeParser: () => deps.createParser(file, sessionId, false),
    offset: info.size,
    ino: info.ino,
    size: info.size,
    mtimeMs: info.mtimeMs,
    line: undefined,
    known: undefined,
    diagnostics: undefined,
    announced: false,
  });

  return { located, openFresh, resumeParser, restoreFrom, quietlyTracked };
};
