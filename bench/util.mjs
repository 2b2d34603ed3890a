/** Small helpers the standalone bench scripts share. */

/** `--name N` from argv as a number, else `fallback`. */
export const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The p-quantile (0..1) of `values`, nearest rank. */
export const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length - 1) * p))];
