/**
 * "Did you mean": the closest of `known` to `word` when it is close enough to be a typo
 * (edit distance with swaps, case-insensitive, at most a third of the word and at least 2).
 * Dependency-free: the CLI's error path uses it without loading anything else.
 */
const distance = (a: string, b: string): number => {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const prev = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
};

export const closest = (word: string, known: Iterable<string>): string | undefined => {
  let best: { readonly name: string; readonly d: number } | undefined;
  for (const name of known) {
    const d = distance(word.toLowerCase(), name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
};

/** True when one of the two names holds the other (case-insensitive); never for an empty one. */
export const holdsEither = (a: string, b: string): boolean => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x !== '' && y !== '' && (x.includes(y) || y.includes(x));
};

/**
 * The nearest of `known` to `word`, however far (undefined only when `known` is empty): a name
 * that holds the word, or that the word holds (`window` -> `window_minutes`), comes before any
 * edit, the nearest in length first; then the smallest edit distance. Case-insensitive; ties go
 * to the first in `known`.
 */
export const nearest = (word: string, known: Iterable<string>): string | undefined => {
  const w = word.toLowerCase();
  let best: { readonly name: string; readonly score: number } | undefined;
  for (const name of known) {
    const n = name.toLowerCase();
    // Containment scores below every edit distance (which is at least 1 for a different name).
    const score = holdsEither(w, n) ? Math.abs(n.length - w.length) / (n.length + w.length + 1) : distance(w, n);
    if (!best || score < best.score) best = { name, score };
  }
  return best?.name;
};
