import type { ClaudeRecord } from './schema.js';
import { isCount } from '../internal/counts.js';

/**
 * The cold-start fast path of `claudeRecordSchema`: the same acceptance test, written out by hand,
 * without zod's copy of every record (a cold start decodes tens of thousands; the copies were a
 * tenth of its CPU and more of its garbage). It accepts exactly what the schema accepts (a property
 * test holds the two together); a record it refuses goes through the schema, whose issue names
 * the field in the diagnostic. The accepted value keeps keys the schema would strip: readers
 * only ever read the schema's keys.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const optString = (value: unknown): boolean => value === undefined || typeof value === 'string';
const optBoolean = (value: unknown): boolean => value === undefined || typeof value === 'boolean';
const optCount = (value: unknown): boolean => value === undefined || isCount(value);

const isUsage = (u: unknown): boolean =>
  isObject(u) && optCount(u.input_tokens) && optCount(u.output_tokens) && optCount(u.cache_creation_input_tokens) && optCount(u.cache_read_input_tokens);

const isBlock = (b: unknown): boolean =>
  isObject(b) &&
  typeof b.type === 'string' &&
  optString(b.text) &&
  optString(b.id) &&
  optString(b.name) &&
  (b.input === undefined || isObject(b.input)) &&
  optString(b.tool_use_id) &&
  optBoolean(b.is_error);

const isMessage = (m: unknown): boolean =>
  isObject(m) &&
  optString(m.role) &&
  optString(m.id) &&
  optString(m.model) &&
  (m.content === undefined || typeof m.content === 'string' || (Array.isArray(m.content) && m.content.every(isBlock))) &&
  (m.usage === undefined || isUsage(m.usage));

export const isClaudeRecord = (r: unknown): r is ClaudeRecord =>
  isObject(r) &&
  typeof r.type === 'string' &&
  optString(r.subtype) &&
  optString(r.timestamp) &&
  optString(r.sessionId) &&
  optString(r.cwd) &&
  optString(r.version) &&
  optString(r.gitBranch) &&
  optBoolean(r.isSidechain) &&
  optBoolean(r.isMeta) &&
  optBoolean(r.isCompactSummary) &&
  optCount(r.costUSD) &&
  optString(r.customTitle) &&
  optString(r.aiTitle) &&
  optString(r.summary) &&
  optString(r.leafUuid) &&
  optString(r.uuid) &&
  (r.message === undefined || isMessage(r.message));
