import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../../src/sinks/webhook/version.js';

describe('packageVersion', () => {
  it('is the version in package.json (User-Agent: agentwatch/<version>)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(packageVersion()).toBe(pkg.version);
    expect(packageVersion()).not.toBe('0.0.0');
  });
});
