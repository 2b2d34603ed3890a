/**
 * The `*** Begin Patch` envelope Codex and Amp (0.0.17xx, `apply_patch`) write files with: each
 * `*** Update File:` / `*** Add File:` header names a file the patch writes.
 */
const PATCH_HEADER = /\*\*\* (?:Update|Add) File: (.+?)(?:\\n|\n|$)/g;

/** Pure: the last file a patch text writes (freeform input, or JSON arguments with escaped newlines). */
export const patchTarget = (patch: string): string | undefined => {
  let last: string | undefined;
  for (const match of patch.matchAll(PATCH_HEADER)) last = match[1]?.trim();
  return last || undefined;
};
