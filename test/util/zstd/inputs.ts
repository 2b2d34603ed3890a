/**
 * Deterministic inputs for the zstd decoder's tests, shared with scripts/make-zstd-fixtures.mjs:
 * the fixtures in fixtures/zstd/ are these inputs compressed by the zstd CLI, and the tests
 * regenerate the plain inputs here to compare with (only the compressed files are committed).
 * Everything comes from a seeded PRNG, so changing a generator means regenerating the fixtures.
 */

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

type Random = () => number;

const int = (random: Random, below: number): number => Math.floor(random() * below);
const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[int(random, items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

const WORDS = (
  'the a to of and in is for that this it with on be as are from not by we you file test tests function ' +
  'return const let value type error message line lines session output input read write path index config ' +
  'should would could now then when if else check run build fix bug change changes update add remove keep ' +
  'decoder encoder block frame stream buffer window offset length literal sequence table state bits byte ' +
  'bytes size limit mode repeat header checksum codex agent model user assistant tool call result shell ' +
  'command exit code status done next first last new old same other each every all some more less'
).split(' ');
const FILES = ['src/app.ts', 'src/cli.ts', 'src/core/state.ts', 'src/sources/codex.ts', 'test/app.test.ts', 'README.md', 'package.json'];
const COMMANDS = ['rg -n "decode" src', 'npm test', 'git status --short', 'ls -la', 'sed -n 1,80p src/app.ts', 'npx tsc --noEmit', 'cat package.json'];
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const sentence = (random: Random, words: number): string => {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(pick(random, WORDS));
  const text = parts.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
};

const paragraph = (random: Random, sentences: number): string => {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) parts.push(sentence(random, 4 + int(random, 14)));
  return parts.join(' ');
};

/** Random base64url text, like the encrypted reasoning Codex stores (hardly compressible). */
const opaque = (random: Random, length: number): string => {
  let text = '';
  for (let i = 0; i < length; i++) text += BASE64.charAt(int(random, 64));
  return text;
};

const hex = (random: Random, length: number): string => {
  let text = '';
  for (let i = 0; i < length; i++) text += '0123456789abcdef'.charAt(int(random, 16));
  return text;
};

/** Output of a test run: many similar lines, as a tool call's output often is. */
const testRunOutput = (random: Random, bytes: number): string => {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const file = pick(random, FILES).replace('src/', 'test/').replace('.ts', '.test.ts');
    const line = `  ${random() < 0.97 ? 'ok' : 'FAIL'} ${file} > ${sentence(random, 3 + int(random, 5))} (${int(random, 900)} ms) [#${i}]`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
};

const STEPS = ['compile', 'bundle', 'lint', 'typecheck', 'test', 'package', 'upload', 'verify'];

/** A long build log, the kind of tool output that makes one transcript line hundreds of kilobytes. */
const buildLog = (random: Random, bytes: number): string => {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const line = `[${String(i).padStart(6, '0')}] ${pick(random, STEPS)} ${pick(random, FILES)}: ${random() < 0.98 ? 'ok' : 'warning: unused value'} in ${int(random, 8) * 50} ms`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
};

const timestamp = (index: number): string => {
  const seconds = 1_750_000_000 + index * 7;
  return new Date(seconds * 1000).toISOString();
};

/** One line of a Codex-like rollout transcript. */
const rolloutLine = (random: Random, index: number): string => {
  const time = timestamp(index);
  const callId = `call_${hex(random, 24)}`;
  const roll = random();
  let line: unknown;
  if (index === 0) {
    line = {
      timestamp: time,
      type: 'session_meta',
      payload: { id: `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`, timestamp: time, cwd: '/home/user/project', originator: 'codex_cli_rs', cli_version: '0.139.0', instructions: null },
    };
  } else if (roll < 0.12) {
    line = { timestamp: time, type: 'turn_context', payload: { cwd: '/home/user/project', approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: 'gpt-5-codex', effort: 'medium', summary: 'auto' } };
  } else if (roll < 0.3) {
    const role = random() < 0.4 ? 'user' : 'assistant';
    line = {
      timestamp: time,
      type: 'response_item',
      payload: { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text: paragraph(random, 1 + int(random, 12)) }] },
    };
  } else if (roll < 0.42) {
    line = {
      timestamp: time,
      type: 'response_item',
      payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: `**${sentence(random, 3)}** ${paragraph(random, 2)}` }], content: null, encrypted_content: `gAAAAA${opaque(random, 100 + int(random, 900))}` },
    };
  } else if (roll < 0.6) {
    const command = random() < 0.5 ? pick(random, COMMANDS) : `sed -n ${int(random, 400)},${int(random, 400) + 40}p ${pick(random, FILES)}`;
    line = { timestamp: time, type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command], timeout_ms: 120000 }), call_id: callId } };
  } else if (roll < 0.78) {
    const output = random() < 0.5 ? testRunOutput(random, 100 + int(random, 3000)) : paragraph(random, 1 + int(random, 20));
    line = {
      timestamp: time,
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output, metadata: { exit_code: random() < 0.9 ? 0 : 1, duration_seconds: Math.round(random() * 1000) / 100 } }) },
    };
  } else {
    const input = 1000 + int(random, 200_000);
    line = {
      timestamp: time,
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: { total_token_usage: { input_tokens: input, cached_input_tokens: int(random, input), output_tokens: int(random, 20_000), reasoning_output_tokens: int(random, 9000), total_tokens: input + int(random, 30_000) } },
        rate_limits: { primary: { used_percent: int(random, 1000) / 10, window_minutes: 300, resets_in_seconds: int(random, 18_000) } },
      },
    };
  }
  return JSON.stringify(line);
};

/** A Codex-like rollout of about `bytes` bytes; `hugeLineBytes` adds one tool output line of that size in its middle. */
export const makeRollout = (seed: number, bytes: number, hugeLineBytes = 0): Buffer => {
  const random = seededRandom(seed);
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < bytes; index++) {
    if (hugeLineBytes > 0 && length >= bytes / 2) {
      const output = buildLog(random, hugeLineBytes);
      lines.push(JSON.stringify({ timestamp: timestamp(index), type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${hex(random, 24)}`, output } }));
      hugeLineBytes = 0;
    } else {
      lines.push(rolloutLine(random, index));
    }
    length += (lines[lines.length - 1]?.length ?? 0) + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
};

/** A long transcript made of a hundred recurring lines with small changes: compresses well, spans many blocks. */
export const makeLongRollout = (seed: number, bytes: number): Buffer => {
  const random = seededRandom(seed);
  const pool: string[] = [];
  for (let index = 0; index < 100; index++) pool.push(rolloutLine(random, index));
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < bytes; index++) {
    // Lines of one turn share a timestamp, as they roughly do in a real rollout.
    const line = pick(random, pool).replace(/"timestamp":"[^"]*"/, `"timestamp":"${timestamp(Math.floor(index / 8))}"`);
    lines.push(line);
    length += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
};

export const randomBytes = (seed: number, bytes: number): Buffer => {
  const random = seededRandom(seed);
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = int(random, 256);
  return out;
};

/** Random bytes 0-7, skewed: Huffman-compressible, no matches, an alphabet small enough for directly written weights. */
export const smallAlphabet = (seed: number, bytes: number): Buffer => {
  const random = seededRandom(seed);
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) {
    // Geometric: 0 half the time, 1 a quarter, ... up to 7.
    let value = 0;
    while (value < 7 && random() < 0.5) value++;
    out[i] = value;
  }
  return out;
};

/** Base64url text with no repeats worth a match: a block of Huffman-coded literals and no sequences. */
export const opaqueText = (seed: number, bytes: number): Buffer => Buffer.from(opaque(seededRandom(seed), bytes));

/**
 * A random prefix, then pieces of it 131-258 bytes long, each after one random byte: every match
 * length falls in one length code (43), so match lengths use RLE mode.
 */
export const sameLengthMatches = (seed: number, bytes: number): Buffer => {
  const random = seededRandom(seed);
  const prefixBytes = 4096;
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < prefixBytes; i++) out[i] = int(random, 256);
  let at = prefixBytes;
  while (at + 1 + 258 <= bytes) {
    out[at++] = int(random, 256);
    const length = 140 + int(random, 100);
    const from = int(random, prefixBytes - length);
    out.copy(out, at, from, from + length);
    at += length;
  }
  return out.subarray(0, at);
};

/** Numbered log lines: sequences whose literal lengths and offsets repeat one code (RLE modes). */
export const counterLines = (count: number): Buffer => {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`{"line":${i},"text":"some text number ${(i * 7) % 1000} here"}`);
  return Buffer.from(`${lines.join('\n')}\n`);
};

/** The plain inputs the fixtures are made from, by name. */
export const fixtureInputs = (): Map<string, Buffer> =>
  new Map([
    ['empty', Buffer.alloc(0)],
    ['tiny', Buffer.from('{"ok":true}\n')],
    ['rollout', makeRollout(1, 60_000)],
    ['long-line', makeRollout(2, 20_000, 300_000)],
    ['long-rollout', makeLongRollout(3, 1_100_000)],
    ['run', Buffer.alloc(400_000, 0x2d)],
    ['random', randomBytes(4, 16_000)],
    ['small-alphabet', smallAlphabet(5, 30_000)],
    ['opaque', opaqueText(6, 16_000)],
    ['counter', counterLines(3000)],
    ['same-length', sameLengthMatches(7, 100_000)],
  ]);

/**
 * How a fixture is made: zstd CLI arguments per frame, each frame compressing one input, read from
 * a file or, with `piped`, from stdin (then the CLI knows no size and picks other parameters: no
 * content size, larger windows); `skippable` puts a skippable frame before each frame.
 */
export interface FixtureSpec {
  readonly file: string;
  readonly frames: readonly { readonly input: string; readonly args: readonly string[]; readonly piped?: boolean }[];
  readonly skippable?: boolean;
}

const single = (input: string, label: string, args: readonly string[], piped = false): FixtureSpec => ({ file: `${input}.${label}.zst`, frames: [{ input, args, piped }] });

export const FIXTURES: readonly FixtureSpec[] = [
  single('empty', 'L3', ['-3']),
  single('empty', 'L3-nocheck', ['-3', '--no-check']),
  single('tiny', 'L3', ['-3']),
  single('tiny', 'L19', ['-19']),
  single('rollout', 'L1', ['-1']),
  single('rollout', 'L3', ['-3']),
  single('rollout', 'L3-nocheck', ['-3', '--no-check']),
  // What Codex writes: the Rust zstd crate's streaming encoder at level 3, no size, no checksum.
  single('rollout', 'L3-stream', ['-3', '--no-check', '--no-content-size']),
  single('rollout', 'L9', ['-9']),
  single('rollout', 'L19', ['-19']),
  single('rollout', 'L22', ['--ultra', '-22']),
  single('rollout', 'long24', ['-3', '--long=24']),
  single('rollout', 'fast5', ['--fast=5']),
  single('long-line', 'L3', ['-3']),
  single('long-line', 'L19', ['-19', '--no-check']),
  single('long-rollout', 'L3-stream', ['-3', '--no-check', '--no-content-size']),
  single('long-rollout', 'L19', ['-19']),
  single('run', 'L3', ['-3']),
  single('run', 'L19-nocheck', ['-19', '--no-check']),
  single('random', 'L3', ['-3']),
  single('small-alphabet', 'L9', ['-9']),
  single('opaque', 'L3', ['-3']),
  single('counter', 'L1', ['-1']),
  single('counter', 'L16-piped', ['-16'], true),
  single('same-length', 'L19-piped', ['-19'], true),
  { file: 'concatenated.zst', frames: [{ input: 'rollout', args: ['-1'] }, { input: 'tiny', args: ['-3', '--no-check'] }, { input: 'run', args: ['-3'] }] },
  { file: 'skippable.zst', frames: [{ input: 'tiny', args: ['-3'] }, { input: 'small-alphabet', args: ['-3', '--no-content-size'] }], skippable: true },
];

/** The skippable frame put before each frame of a `skippable` fixture: magic 0x184D2A5? and a few bytes of user data. */
export const skippableFrame = (index: number): Buffer => {
  const data = Buffer.from(`user data ${index}`);
  const frame = Buffer.alloc(8 + data.length);
  frame.writeUInt32LE(0x184d2a50 + (index % 16), 0);
  frame.writeUInt32LE(data.length, 4);
  data.copy(frame, 8);
  return frame;
};

/** The decoded content a fixture must produce. */
export const expectedContent = (spec: FixtureSpec, inputs: Map<string, Buffer>): Buffer =>
  Buffer.concat(
    spec.frames.map(({ input }) => {
      const content = inputs.get(input);
      if (content === undefined) throw new Error(`no input named ${input}`);
      return content;
    }),
  );
