/**
 * While the TUI owns the screen, a warning written to stderr (a source that failed, a webhook
 * receiver that is down) would paint over the frame. Hold those lines instead: the TUI shows the
 * latest in its help bar and all of them are written out once the terminal is restored.
 */
export interface StderrCapture {
  /** Put the stream back and return the lines captured meanwhile (empty on later calls). */
  readonly release: () => string[];
}

type Write = NodeJS.WritableStream['write'];

export const captureStderr = (stream: NodeJS.WritableStream, onLine: (line: string) => void): StderrCapture => {
  const original = stream.write;
  const lines: string[] = [];
  let partial = '';
  let released = false;
  const capture = (chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean => {
    partial += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      onLine(line);
    }
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as (error?: Error | null) => void)(null));
    return true;
  };
  stream.write = capture as Write;
  return {
    release: () => {
      if (released) return [];
      released = true;
      stream.write = original;
      if (partial !== '') lines.push(partial);
      return lines;
    },
  };
};
