/** A search snippet marks each hit as `[...]`: split it into plain and highlighted parts. */
export const snippetParts = (text: string): { readonly text: string; readonly hit: boolean }[] => {
  const parts: { text: string; hit: boolean }[] = [];
  const pattern = /\[([^\]]*)\]/g;
  let last = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), hit: false });
    parts.push({ text: match[1] ?? '', hit: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), hit: false });
  return parts;
};
