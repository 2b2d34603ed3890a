/** Pure conversions of the Settings fields to config values (the server validates; these only shape). */

/** A textarea of one entry per line -> the trimmed, non-empty lines. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** A number field: its number when it reads as one, else the raw text (the server then says what is wrong). */
export const numberOrRaw = (text: string): number | string => {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
};
