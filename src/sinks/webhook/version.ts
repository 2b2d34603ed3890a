import { readFileSync } from 'node:fs';

/**
 * The package version for `User-Agent: agentwatch/<version>`. src/sinks/webhook and
 * dist/sinks/webhook sit at the same depth, so one relative URL finds package.json from both.
 */
export const packageVersion = (): string => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
};
