import type { Env } from '../config/paths.js';

/** Reads one generic password; `undefined` when there is none (or access was refused). */
export type KeychainRead = (service: string, account: string, env: Env) => Promise<string | undefined>;

/**
 * macOS keychain through the system `security` tool, so no native module is needed. Loaded and
 * called only on macOS; the secret goes to stdout of the child, never to a log.
 */
export const securityKeychainRead: KeychainRead = async (service, account, env) => {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      'security',
      ['find-generic-password', '-s', service, '-a', account, '-w'],
      { env: { ...env }, timeout: 5_000, maxBuffer: 1024 * 1024 },
      (error, stdout) => {
        const text = String(stdout).trim();
        resolve(error || text === '' ? undefined : text);
      },
    );
  });
};
