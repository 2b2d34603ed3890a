/**
 * A config key's path as every message writes it: `webhooks[0].events`, `agents.claude`, the
 * same in load errors, unknown-key warnings and `PUT /api/config` answers.
 */
export const keyPath = (path: readonly PropertyKey[]): string =>
  path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`)).join('');
