// Cursor 3.x keeps an index of its composers in the global `ItemTable` under
// `composer.composerHeaders` (`{ allComposers: [{ composerId, workspaceIdentifier: { uri: { fsPath } },
// isSubagent, createdAt, lastUpdatedAt, ... }] }`), and later builds in a `composerHeaders` table
// (composerId, workspaceId, isSubagent, value, ...). Sub-agents run in composers of their own,
// marked `isSubagent` (docs/formats/cursor.md).
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { tableColumns } from '../sqlite/columns.js';
import { parseJsonValue } from '../sqlite/values.js';

/** What Cursor's composer index says of one composer. */
export interface ComposerHeader {
  readonly subagent: boolean;
  /** The workspace folder the composer ran in, when the index names one. */
  readonly cwd: string | undefined;
}

const headerSchema = z.looseObject({
  composerId: z.string(),
  isSubagent: z.unknown().optional(),
  workspaceIdentifier: z.looseObject({ uri: z.looseObject({ fsPath: z.string().nullish() }).nullish().catch(undefined) }).nullish().catch(undefined),
});
const indexSchema = z.looseObject({ allComposers: z.array(z.unknown()) });

const truthy = (value: unknown): boolean => value === true || value === 1;

const headerOf = (value: unknown): [string, ComposerHeader] | undefined => {
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const cwd = parsed.data.workspaceIdentifier?.uri?.fsPath ?? undefined;
  return [parsed.data.composerId, { subagent: truthy(parsed.data.isSubagent), cwd: cwd === '' ? undefined : cwd }];
};

/**
 * Reads Cursor's composer index: the `composerHeaders` table where it exists, else the
 * `composer.composerHeaders` key of `ItemTable`. Returns a reader that gives the headers by
 * composer id (empty when this Cursor keeps no index); a header that does not validate is left out.
 */
export const openComposerHeaders = (db: Database): (() => ReadonlyMap<string, ComposerHeader>) => {
  const table = tableColumns(db, 'composerHeaders');
  if (table.has('composerId')) {
    const columns = ['composerId', ...(['isSubagent', 'value'] as const).filter((column) => table.has(column))];
    const rows = db.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM composerHeaders`);
    return () => {
      const headers = new Map<string, ComposerHeader>();
      for (const row of rows.all() as { composerId: unknown; isSubagent?: unknown; value?: unknown }[]) {
        if (typeof row.composerId !== 'string') continue;
        const json = row.value === undefined ? undefined : parseJsonValue(row.value);
        const fromValue = json?.ok ? headerOf({ ...(json.value as object), composerId: row.composerId }) : undefined;
        headers.set(row.composerId, { subagent: truthy(row.isSubagent) || fromValue?.[1].subagent === true, cwd: fromValue?.[1].cwd });
      }
      return headers;
    };
  }
  if (!tableColumns(db, 'ItemTable').has('value')) return () => new Map();
  const item = db.prepare(`SELECT value FROM ItemTable WHERE key = 'composer.composerHeaders'`).pluck();
  return () => {
    const json = parseJsonValue(item.get());
    const index = json.ok ? indexSchema.safeParse(json.value) : undefined;
    if (!index?.success) return new Map();
    const headers = new Map<string, ComposerHeader>();
    for (const value of index.data.allComposers) {
      const header = headerOf(value);
      if (header) headers.set(header[0], header[1]);
    }
    return headers;
  };
};
