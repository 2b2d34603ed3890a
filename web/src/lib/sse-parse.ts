/**
 * A pure, incremental parser of the text/event-stream format (the subset the server sends:
 * `event:`, `data:`, `retry:`, comments). Fed chunks as they arrive; a chunk may end anywhere,
 * even inside a line or a CRLF pair.
 */

export interface SseMessage {
  readonly event: string;
  readonly data: string;
}

export interface SseParser {
  /** The complete messages in `chunk` (plus what earlier chunks left unfinished). */
  readonly push: (chunk: string) => SseMessage[];
  /** The last `retry:` value the server sent, in ms. */
  readonly retryMs: () => number | undefined;
}

export const createSseParser = (): SseParser => {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let retry: number | undefined;

  const line = (text: string, out: SseMessage[]): void => {
    if (text === '') {
      if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    push: (chunk) => {
      buffer += chunk;
      const out: SseMessage[] = [];
      let start = 0;
      for (;;) {
        const lf = buffer.indexOf('\n', start);
        const cr = buffer.indexOf('\r', start);
        let end: number;
        let next: number;
        if (cr !== -1 && (lf === -1 || cr < lf)) {
          // A lone CR ends a line too; a CR at the very end may be the first half of CRLF.
          if (cr === buffer.length - 1) break;
          end = cr;
          next = buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
        } else if (lf !== -1) {
          end = lf;
          next = lf + 1;
        } else break;
        line(buffer.slice(start, end), out);
        start = next;
      }
      buffer = buffer.slice(start);
      return out;
    },
    retryMs: () => retry,
  };
};
