import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createIdeComposerCheck } from './ide-composers.js';
import { cursorDbPath } from './paths.js';
import { createCursorTranscriptParser } from './transcript-parse.js';
import { classifyCursorTranscript, CURSOR_TRANSCRIPT_DEPTH, cursorProjectsDir, workspaceOfFolder } from './transcript-paths.js';

/**
 * Cursor Agent's transcripts, `~/.cursor/projects/<folder>/agent-transcripts/<id>/<id>.jsonl`
 * (docs/formats/cursor.md); a chat the IDE also keeps as a composer is read from its database.
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
const cursorTranscriptSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const dir = cursorProjectsDir(ctx.env);
  const inIde = createIdeComposerCheck(cursorDbPath(ctx.env, ctx.platform));
  const folders = new Map<string, string | undefined>();
  const workspace = (folder: string): string | undefined => {
    if (!folders.has(folder)) folders.set(folder, workspaceOfFolder(folder));
    return folders.get(folder);
  };
  return {
    agent: 'cursor',
    roots: [{ dir, depth: CURSOR_TRANSCRIPT_DEPTH }],
    classify: (_root, file) => {
      const found = classifyCursorTranscript(dir, file);
      return found && !inIde(found.parentId ?? found.sessionId) ? found.sessionId : undefined;
    },
    createParser: (file, sessionId, resumed, restored, born) => {
      const where = classifyCursorTranscript(dir, file) ?? { sessionId, folder: '' };
      return createCursorTranscriptParser(file, where, () => workspace(where.folder), resumed, restored, born);
    },
  };
};

export const cursorTranscripts = createJsonlSource(cursorTranscriptSpec);
