import type { AgentKind } from '../../core/agents.js';
import type { SessionEvent } from '../../core/session.js';

/** Where an unknown record was found and which agent version wrote it (when known). */
interface UnknownWhere {
  readonly sessionId?: string;
  readonly path?: string;
  readonly line?: number;
  readonly version?: string;
}

export interface UnknownRecords {
  /**
   * An `E_UNKNOWN_RECORD` diagnostic for `what` (a record type, block type, field shape...), once
   * per `key` for this counter's lifetime (one per file: a type written on every line is one
   * finding, not thousands); `[]` when `key` was already reported.
   */
  readonly once: (key: string, what: string, where: UnknownWhere) => SessionEvent[];
}

/**
 * Counts what a parser does not know (docs/formats/README.md): a record type or field
 * shape of another agent version is skipped, never an error, and never silently. `product` names
 * the writer in the message (`Claude Code`, `Codex`...).
 */
export const createUnknownRecords = (agent: AgentKind, product: string): UnknownRecords => {
  const seen = new Set<string>();
  return {
    once: (key, what, where) => {
      if (seen.has(key)) return [];
      seen.add(key);
      const by = where.version ? ` (written by ${product} ${where.version})` : '';
      return [
        {
          type: 'diagnostic',
          agent,
          code: 'E_UNKNOWN_RECORD',
          message: `${what} is not known to this version of agentwatch${by}; skipped`,
          ...(where.sessionId ? { sessionId: where.sessionId } : {}),
          ...(where.path ? { path: where.path } : {}),
          ...(where.line !== undefined ? { line: where.line } : {}),
          ...(where.version ? { version: where.version } : {}),
        },
      ];
    },
  };
};
