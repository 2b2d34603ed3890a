import { isJsonObject } from './skim.js';

/**
 * Claude Code now and then writes a record straight after the previous one with no newline
 * between them (`…}{"parentUuid":…`). Read as one line, both records are junk and the first is
 * lost, though each is whole. Valid JSON never holds `}{"` outside a string, and inside one only
 * where the string ends in `}{`, so only such a line is looked at: when it does not parse as it
 * stands, it is cut where every piece parses as a JSON object. Any other line comes back as it is,
 * and a line that cannot be cut that way stays one junk line, counted as before.
 */

const GLUE = Buffer.from('}{"');

/** The records of one line: the line itself, or its glued records in order. */
export const gluedRecords = (line: Buffer): readonly Buffer[] => {
  if (line.indexOf(GLUE) === -1 || isJsonObject(line)) return [line];
  const pieces: Buffer[] = [];
  let start = 0;
  let at = line.indexOf(GLUE, start);
  while (at !== -1) {
    // A string ending in `}{` is not a seam: the piece up to it does not parse, so look further.
    const piece = line.subarray(start, at + 1);
    if (isJsonObject(piece)) {
      pieces.push(piece);
      start = at + 1;
    }
    at = line.indexOf(GLUE, at + 1);
  }
  const rest = line.subarray(start);
  if (pieces.length === 0 || !isJsonObject(rest)) return [line];
  pieces.push(rest);
  return pieces;
};
