import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
/** Small helpers the standalone bench scripts share. */

/** `--name N` from argv as a number, else `fallback`. */
export const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The p-quantile (0..1) of `values`, nearest rank. */
export const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length - 1) * p))];

/** The machine a figure was measured on (results are compared only within one machine). */
export const machine = () => {
  const cpus = os.cpus();
  return { cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length, memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` };
};

/** Writes bench/results/<name>.json: the figures, their anchors from the same run, the machine and the date. */
export const saveResult = (name, result) => {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify({ name, date: new Date().toISOString(), machine: machine(), ...result }, null, 2)}\n`);
  return file;
};

/** The median (the lower middle of an even count), as every bench reports it. */
export const median = (values) => percentile(values, 0.5);
