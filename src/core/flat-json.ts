/**
 * `JSON.stringify(value)` as one flat string. V8 returns the text as a chain of pieces (a rope)
 * and keeps it so until something reads it; reading one character joins it, and the garbage
 * collector then drops the pieces. For text held long (a listed session's JSON, kept for as
 * long as the session is listed) that is noticeably less memory (docs/performance.md).
 */
export const flatJson = (value: unknown): string => {
  const json = JSON.stringify(value);
  json.charCodeAt(0);
  return json;
};
