import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageField, packageRoot } from '../../src/util/package-json.js';
import { runCli } from '../helpers/cli.js';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string; homepage: string };

describe('package.json lookup (src/, dist/ and the bundle chunks in dist/chunks/ alike)', () => {
  it('finds the package root and its fields from the source module', () => {
    expect(packageRoot()).toBe(root);
    expect(packageField('version')).toBe(pkg.version);
    expect(packageField('homepage')).toBe(pkg.homepage);
  });

  it('the bundled CLI (dist/cli.js with its chunks) reports the same version', async () => {
    const result = await runCli(['--version'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() } });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });
});
