import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/core/io.js';
import { stderrLogger } from '../../src/app/config-setup.js';

describe("the monitor's stderr log", () => {
  it('escapes escape sequences, C1, bidi and zero-width characters a message quotes', () => {
    const stderr = new PassThrough();
    const written: string[] = [];
    stderr.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    const log = stderrLogger({ stderr } as unknown as CliIo, { info: true });
    const hostile = '\u001b]52;c;cHduZWQ=\u0007 \u001b[2J \u001b]0;owned\u0007 \u009b2J \u202e \u200b';
    log.info(`session "${hostile}"`);
    log.warn(`webhook "probe": receiver answered ${hostile}`);
    log.error(hostile);
    expect(written).toEqual([
      'agentwatch: session "\\x1b]52;c;cHduZWQ=\\x07 \\x1b[2J \\x1b]0;owned\\x07 \\x9b2J \\u202e \\u200b"\n',
      'agentwatch: webhook "probe": receiver answered \\x1b]52;c;cHduZWQ=\\x07 \\x1b[2J \\x1b]0;owned\\x07 \\x9b2J \\u202e \\u200b\n',
      'agentwatch: error: \\x1b]52;c;cHduZWQ=\\x07 \\x1b[2J \\x1b]0;owned\\x07 \\x9b2J \\u202e \\u200b\n',
    ]);
  });
});
