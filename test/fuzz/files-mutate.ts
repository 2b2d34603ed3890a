import { pick, randInt, type Rng } from './prng.js';

/**
 * Random damage to a transcript (or a JSON document), byte- and record-level: what a crash, a
 * torn write, another program or a newer agent version can leave in a file. Pure: bytes in,
 * bytes out, plus a note of what was done (printed with the seed when a property fails).
 */

export interface Mutated {
  readonly bytes: Buffer;
  readonly steps: readonly string[];
}

type Mutation = (rng: Rng, bytes: Buffer) => { readonly bytes: Buffer; readonly step: string };

const NL = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Multi-byte UTF-8 text (2, 3 and 4 byte characters, a combining mark): cuts land inside characters. */
export const WIDE_TEXT = 'é日本語 🎉 ñ̃ 𝄞 Ωmega ✓';

/** Start offsets of every line, plus the end of the last complete one. */
const lineStarts = (bytes: Buffer): number[] => {
  const starts = [0];
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, i + 1)) starts.push(i + 1);
  return starts;
};

/** The complete lines (without their newline) and the unterminated tail. */
export const splitLines = (bytes: Buffer): { readonly lines: Buffer[]; readonly tail: Buffer } => {
  const lines: Buffer[] = [];
  let from = 0;
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, from)) {
    lines.push(bytes.subarray(from, i));
    from = i + 1;
  }
  return { lines, tail: bytes.subarray(from) };
};

const joinLines = (lines: readonly Buffer[], tail: Buffer): Buffer => Buffer.concat([...lines.flatMap((l) => [l, Buffer.from('\n')]), tail]);

const insertAt = (bytes: Buffer, at: number, piece: Buffer): Buffer => Buffer.concat([bytes.subarray(0, at), piece, bytes.subarray(at)]);

/** A line boundary (the start of a line, or the end of the last complete line). */
const boundary = (rng: Rng, bytes: Buffer): number => pick(rng, lineStarts(bytes));

/**
 * A complete line that is not JSON and carries no record type an agent skips unparsed (so every
 * parser must look at it): printable text, wide characters, a torn object.
 */
export const junkLine = (rng: Rng): string => {
  const kinds = [
    () => `garbage ${randInt(rng, 0, 1e6)} ${WIDE_TEXT.slice(0, randInt(rng, 1, WIDE_TEXT.length))}`,
    () => `{"torn": "record ${randInt(rng, 0, 999)}`,
    () => '}{',
    () => `<<<<<<< HEAD ${randInt(rng, 0, 99)}`,
    () => `\u0000\u0001binary\u0002`,
    () => `{"a":1,}`,
    () => `[1, 2`,
  ];
  return pick(rng, kinds)();
};

const truncate: Mutation = (rng, bytes) => {
  const at = randInt(rng, 0, bytes.length);
  return { bytes: bytes.subarray(0, at), step: `truncate at ${at}/${bytes.length}` };
};

const flipBytes: Mutation = (rng, bytes) => {
  if (bytes.length === 0) return { bytes, step: 'flip: empty' };
  const out = Buffer.from(bytes);
  const n = randInt(rng, 1, 3);
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = randInt(rng, 0, out.length - 1);
    out[p] = (out[p] as number) ^ randInt(rng, 1, 255);
    at.push(p);
  }
  return { bytes: out, step: `flip bytes at ${at.join(',')}` };
};

const insertBytes: Mutation = (rng, bytes) => {
  const at = randInt(rng, 0, bytes.length);
  const piece = Buffer.from(Array.from({ length: randInt(rng, 1, 8) }, () => randInt(rng, 0, 255)));
  return { bytes: insertAt(bytes, at, piece), step: `insert ${piece.toString('hex')} at ${at}` };
};

const junkLines: Mutation = (rng, bytes) => {
  let out = bytes;
  const n = randInt(rng, 1, 3);
  for (let i = 0; i < n; i++) out = insertAt(out, boundary(rng, out), Buffer.from(`${junkLine(rng)}\n`));
  return { bytes: out, step: `insert ${n} junk line(s)` };
};

const emptyLines: Mutation = (rng, bytes) => {
  const piece = pick(rng, ['\n', '   \n', '\r\n', '\t\n', '\n\n']);
  const at = boundary(rng, bytes);
  return { bytes: insertAt(bytes, at, Buffer.from(piece)), step: `insert blank ${JSON.stringify(piece)} at ${at}` };
};

const crlf: Mutation = (rng, bytes) => {
  const all = rng() < 0.5;
  const { lines, tail } = splitLines(bytes);
  const out = lines.map((l) => (all || rng() < 0.5 ? Buffer.concat([l, Buffer.from('\r')]) : l));
  return { bytes: joinLines(out, tail), step: all ? 'CRLF everywhere' : 'CRLF on some lines' };
};

const bom: Mutation = (_rng, bytes) => ({ bytes: Buffer.concat([BOM, bytes]), step: 'BOM' });

const longLine: Mutation = (rng, bytes) => {
  const size = randInt(rng, 4_000, 120_000);
  const record = rng() < 0.5;
  const text = (WIDE_TEXT + 'x'.repeat(50)).repeat(Math.ceil(size / 80)).slice(0, size);
  const line = record ? JSON.stringify({ type: 'user', message: { role: 'user', content: text }, timestamp: '2026-03-10T10:00:00.000Z' }) : `junk ${text}`;
  const at = boundary(rng, bytes);
  return { bytes: insertAt(bytes, at, Buffer.from(`${line}\n`)), step: `insert a ${record ? 'record' : 'junk'} line of ~${size} chars at ${at}` };
};

const duplicateLine: Mutation = (rng, bytes) => {
  const { lines, tail } = splitLines(bytes);
  if (lines.length === 0) return { bytes, step: 'duplicate: no line' };
  const i = randInt(rng, 0, lines.length - 1);
  const out = [...lines];
  out.splice(randInt(rng, 0, out.length), 0, lines[i] as Buffer);
  return { bytes: joinLines(out, tail), step: `duplicate line ${i + 1}` };
};

const swapLines: Mutation = (rng, bytes) => {
  const { lines, tail } = splitLines(bytes);
  if (lines.length < 2) return { bytes, step: 'swap: under two lines' };
  const i = randInt(rng, 0, lines.length - 1);
  const j = randInt(rng, 0, lines.length - 1);
  const out = [...lines];
  [out[i], out[j]] = [out[j] as Buffer, out[i] as Buffer];
  return { bytes: joinLines(out, tail), step: `swap lines ${i + 1} and ${j + 1}` };
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = readonly (string | number)[];

/** Every path into `value` (keys and indices), down to 8 levels. */
const pathsOf = (value: Json, at: Path = [], out: Path[] = []): Path[] => {
  if (at.length > 8 || value === null || typeof value !== 'object') return out;
  const entries: [string | number, Json][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    out.push([...at, key]);
    pathsOf(child, [...at, key], out);
  }
  return out;
};

const parsed = (bytes: Buffer): Json | undefined => {
  try {
    return JSON.parse(bytes.toString('utf8')) as Json;
  } catch {
    return undefined;
  }
};

const parentOf = (root: Json, path: Path): Json => path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string | number, Json>)[key] as Json, root);

/** Numbers and strings that break naive code: extreme, negative, fractional, beyond `Date`'s range, not dates. */
const NASTY_NUMBERS = [0, -1, -1e6, 1.5, 2 ** 53, 1e21, 8.64e15, 8.64e15 + 1, 1e300, -1e300];
const NASTY_STRINGS = ['', 'x', '2026-13-45T99:99:99Z', '+275760-09-13T00:00:00.001Z', '-271821-04-20T00:00:00.000Z', '9999-12-31T23:59:59.999Z', WIDE_TEXT, 'a'.repeat(5000)];

const otherValue = (rng: Rng, current: Json): Json => {
  const choices: (() => Json)[] = [
    () => pick(rng, NASTY_NUMBERS),
    () => pick(rng, NASTY_STRINGS),
    () => null,
    () => [],
    () => [pick(rng, NASTY_NUMBERS), pick(rng, NASTY_STRINGS)],
    () => ({}),
    () => ({ type: pick(rng, NASTY_STRINGS) }),
    () => rng() < 0.5,
  ];
  for (let i = 0; i < 8; i++) {
    const next = pick(rng, choices)();
    if (typeof next !== typeof current || Array.isArray(next) !== Array.isArray(current) || typeof next === 'number' || typeof next === 'string') return next;
  }
  return null;
};

/**
 * Rewrites one JSON line (the first complete line that parses, from a random start) with `edit`;
 * a JSON document (amp's threads, grok's summary) as a whole when it parses as one.
 */
const editJsonLine = (rng: Rng, bytes: Buffer, name: string, edit: (root: Json, paths: Path[]) => string | undefined): { bytes: Buffer; step: string } => {
  const whole = parsed(bytes);
  if (whole !== null && typeof whole === 'object') {
    const paths = pathsOf(whole);
    const what = paths.length === 0 ? undefined : edit(whole, paths);
    if (what !== undefined) return { bytes: Buffer.from(JSON.stringify(whole, null, rng() < 0.5 ? 2 : undefined)), step: `${name} document: ${what}` };
  }
  const { lines, tail } = splitLines(bytes);
  const start = lines.length === 0 ? 0 : randInt(rng, 0, lines.length - 1);
  for (let k = 0; k < lines.length; k++) {
    const i = (start + k) % lines.length;
    let root: Json;
    try {
      root = JSON.parse((lines[i] as Buffer).toString('utf8')) as Json;
    } catch {
      continue;
    }
    const paths = pathsOf(root);
    if (paths.length === 0) continue;
    const what = edit(root, paths);
    if (what === undefined) continue;
    const out = [...lines];
    out[i] = Buffer.from(JSON.stringify(root));
    return { bytes: joinLines(out, tail), step: `${name} line ${i + 1}: ${what}` };
  }
  return { bytes, step: `${name}: no JSON line` };
};

const retypeValue: Mutation = (rng, bytes) =>
  editJsonLine(rng, bytes, 'retype', (root, paths) => {
    const path = pick(rng, paths);
    const parent = parentOf(root, path) as Record<string | number, Json>;
    const key = path[path.length - 1] as string | number;
    parent[key] = otherValue(rng, parent[key] as Json);
    return `${path.join('.')} = ${JSON.stringify(parent[key]).slice(0, 40)}`;
  });

/** Times and counters: the fields whose values reach arithmetic and date formatting. */
const NUMERIC_KEY = /time|stamp|At$|created|updated|tokens|Tokens|cost|usage|input|output|cache|total|sentAt|messageId|offset/i;

const nastyNumber: Mutation = (rng, bytes) =>
  editJsonLine(rng, bytes, 'nasty number', (root, paths) => {
    const keyed = paths.filter((p) => typeof p[p.length - 1] === 'string' && NUMERIC_KEY.test(p[p.length - 1] as string));
    if (keyed.length === 0) return undefined;
    const path = pick(rng, keyed);
    const parent = parentOf(root, path) as Record<string, Json>;
    const key = path[path.length - 1] as string;
    parent[key] = rng() < 0.7 ? pick(rng, NASTY_NUMBERS) : pick(rng, NASTY_STRINGS);
    return `${path.join('.')} = ${JSON.stringify(parent[key]).slice(0, 40)}`;
  });

const dropField: Mutation = (rng, bytes) =>
  editJsonLine(rng, bytes, 'drop', (root, paths) => {
    const keyed = paths.filter((p) => typeof p[p.length - 1] === 'string');
    if (keyed.length === 0) return undefined;
    const path = pick(rng, keyed);
    delete (parentOf(root, path) as Record<string, Json>)[path[path.length - 1] as string];
    return path.join('.');
  });

const wideText: Mutation = (rng, bytes) =>
  editJsonLine(rng, bytes, 'wide text', (root, paths) => {
    const strings = paths.filter((p) => typeof (parentOf(root, p) as Record<string | number, Json>)[p[p.length - 1] as string | number] === 'string');
    if (strings.length === 0) return undefined;
    const path = pick(rng, strings);
    const parent = parentOf(root, path) as Record<string | number, Json>;
    const key = path[path.length - 1] as string | number;
    parent[key] = `${parent[key] as string}${WIDE_TEXT}`;
    return path.join('.');
  });

const MUTATIONS: readonly (readonly [string, Mutation])[] = [
  ['truncate', truncate],
  ['flip', flipBytes],
  ['insert', insertBytes],
  ['junk', junkLines],
  ['blank', emptyLines],
  ['crlf', crlf],
  ['bom', bom],
  ['long', longLine],
  ['duplicate', duplicateLine],
  ['swap', swapLines],
  ['retype', retypeValue],
  ['number', nastyNumber],
  ['drop', dropField],
  ['wide', wideText],
];

/** 1-4 random mutations of `bytes` (a BOM only ever first, as a file carries one). */
export const mutate = (rng: Rng, bytes: Buffer, options: { readonly max?: number; readonly exclude?: readonly string[] } = {}): Mutated => {
  const allowed = MUTATIONS.filter(([name]) => !options.exclude?.includes(name));
  const n = randInt(rng, 1, options.max ?? 4);
  let out = bytes;
  const steps: string[] = [];
  let withBom = false;
  for (let i = 0; i < n; i++) {
    const [name, mutation] = pick(rng, allowed);
    if (name === 'bom') {
      withBom = true;
      steps.push('BOM');
      continue;
    }
    const result = mutation(rng, out);
    out = result.bytes;
    steps.push(result.step);
  }
  return { bytes: withBom ? Buffer.concat([BOM, out]) : out, steps };
};

/** Where to cut `bytes` into `parts` appends: anywhere, including inside a line or a character. */
export const randomCuts = (rng: Rng, length: number, parts: number): number[] => {
  const cuts = new Set<number>();
  for (let i = 1; i < parts; i++) cuts.add(randInt(rng, 0, length));
  return [...cuts].sort((a, b) => a - b);
};
