import { readFileSync, statSync } from 'node:fs';
import type { TokenCounts } from '../../core/session.js';
import { parseJson } from '../internal/skim.js';
import { droidSettingsFile } from './paths.js';
import { droidSettingsSchema } from './schema.js';

/** What a session's settings file says, with the stamp it was read at. */
export interface DroidSettingsRead {
  /** Size and mtime: a rewrite changes it. */
  readonly stamp: string;
  readonly model?: string;
  readonly tokens?: TokenCounts;
}

/**
 * Droid's model id as a price table knows it: a model the user brought (`custom:<name>`) is named
 * without the prefix.
 */
const modelName = (raw: string | undefined): string | undefined => {
  const name = raw?.replace(/^custom:/, '').trim();
  return name ? name : undefined;
};

/** Pure: a settings file's text to its model and running token totals (thinking is billed as output). */
export const parseDroidSettings = (text: string, stamp: string): DroidSettingsRead => {
  const parsed = droidSettingsSchema.safeParse(parseJson(text));
  if (!parsed.success) return { stamp };
  const { model, tokenUsage: u } = parsed.data;
  const tokens = u ? { input: u.inputTokens, output: u.outputTokens + u.thinkingTokens, cacheCreation: u.cacheCreationTokens, cacheRead: u.cacheReadTokens } : undefined;
  return { stamp, ...(modelName(model) ? { model: modelName(model) } : {}), ...(tokens ? { tokens } : {}) };
};

/** Reads the settings file beside `transcript` unless its stamp is still `known`; undefined when absent or unchanged. */
export type DroidSettingsReader = (transcript: string, known: string | undefined) => DroidSettingsRead | undefined;

export const readDroidSettings: DroidSettingsReader = (transcript, known) => {
  const file = droidSettingsFile(transcript);
  try {
    const info = statSync(file);
    const stamp = `${info.size}:${info.mtimeMs}`;
    if (stamp === known) return undefined;
    return parseDroidSettings(readFileSync(file, 'utf8'), stamp);
  } catch {
    return undefined;
  }
};
