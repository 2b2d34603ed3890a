/** Reads Prometheus text exposition back into `name{labels}` -> value, for assertions. */
export const parseExposition = (text: string): Map<string, number> => {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
};

/** One sample by name and labels (label order as written by the test: prom-client keeps declaration order). */
export const sample = (values: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined => {
  const entries = Object.entries(labels);
  const key = entries.length === 0 ? name : `${name}{${entries.map(([k, v]) => `${k}="${v}"`).join(',')}}`;
  return values.get(key);
};
