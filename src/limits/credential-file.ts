import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { describeIssues } from './issues.js';
import { LimitError } from './types.js';

const errorCode = (error: unknown): string => (error instanceof Error && 'code' in error ? String(error.code) : 'unknown error');

/**
 * Reads an agent's credential file: `undefined` when it does not exist (not logged in), the
 * parsed value when it matches `schema`, and E_BAD_CREDENTIAL naming the file and the field
 * otherwise. The file's content never appears in a message: it holds a token.
 */
export const readCredentialFile = async <T>(file: string, schema: z.ZodType<T>): Promise<T | undefined> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
    throw new LimitError('E_BAD_CREDENTIAL', `could not read ${file} (${errorCode(error)})`);
  }
  return parseCredentialText(text, file, schema);
};

/** Validates credential JSON from a file or the keychain; `origin` names it in messages. */
export const parseCredentialText = <T>(text: string, origin: string, schema: z.ZodType<T>): T => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LimitError('E_BAD_CREDENTIAL', `${origin} is not valid JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new LimitError('E_BAD_CREDENTIAL', `${origin} has an unexpected shape (${describeIssues(parsed.error)})`);
  return parsed.data;
};

/** An environment variable that is set and not blank. */
export const envValue = (env: Readonly<Record<string, string | undefined>>, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};
