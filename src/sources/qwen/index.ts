import path from 'node:path';
import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createChatDocumentParser } from '../gemini/document.js';
import type { GeminiDialect } from '../gemini/records.js';
import { createQwenParser } from './parse.js';
import { QWEN_TMP_DEPTH, QWEN_TREE_DEPTH, qwenChatDocumentId, qwenIdFromFile, qwenProjectsDir, qwenTmpDir } from './paths.js';

/**
 * Qwen Code's single-document chats are Gemini CLI's of the same time (its fork), the model's
 * messages of type `qwen`. Qwen Code resumes only its JSONL chats: these have no resume command.
 */
const QWEN_DOCUMENT_DIALECT: GeminiDialect = { agent: 'qwen', product: 'Qwen Code', answer: 'qwen', resumeCommand: () => '' };

/**
 * Qwen Code: `<runtime dir>/projects/<project>/chats/<session id>.jsonl`, and the older
 * single-document `<runtime dir>/tmp/<hash>/chats/session-*.json`, read whole on every change.
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const qwenSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const dir = qwenProjectsDir(ctx.env);
  const tmpDir = qwenTmpDir(ctx.env);
  const isDocument = (file: string): boolean => file.startsWith(tmpDir + path.sep) && file.endsWith('.json');
  return {
    agent: 'qwen',
    roots: [
      { dir, depth: QWEN_TREE_DEPTH },
      { dir: tmpDir, depth: QWEN_TMP_DEPTH },
    ],
    classify: (root, file) => (root === tmpDir ? qwenChatDocumentId(tmpDir, file) : qwenIdFromFile(dir, file)),
    readsWhole: isDocument,
    // The project folder of a document is named by the sha256 of the path, which Qwen Code kept no map of.
    createParser: (file, sessionId, resumed, restored) =>
      isDocument(file) ? createChatDocumentParser(file, { kind: 'main', project: path.dirname(path.dirname(file)), provisionalId: sessionId }, undefined, QWEN_DOCUMENT_DIALECT) : createQwenParser(file, sessionId, resumed, restored),
  };
};

export const qwen = createJsonlSource(qwenSpec);
