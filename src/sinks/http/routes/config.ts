import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { publicConfig, type Config } from '../../../config/effective.js';
import { ConfigError } from '../../../config/errors.js';
import type { LiveConfig } from '../../../config/live.js';
import { passphraseProblem, updateConfig } from '../../../config/load.js';
import type { Env } from '../../../config/paths.js';
import { applyConfigPatch, parseConfigPatch, restartRequired } from '../../../config/patch.js';
import type { AgentKind } from '../../../core/agents.js';
import { AutostartError } from '../../../desktop/autostart.js';

/**
 * `PUT /api/config` (the Settings panel) and `PUT /api/passphrase` (rotation). Both write the
 * config file atomically under the config lock, re-reading it there so a concurrent change by
 * another process is kept, and never answer with a secret.
 */

/** Header naming the saved settings that take effect only after a restart (comma-separated). */
export const RESTART_HEADER = 'agentwatch-restart-required';

export interface SettingsDeps {
  readonly env: Env;
  readonly live: LiveConfig;
  /** The config the monitor started with: what a restart would change is measured against it. */
  readonly startedWith: Config;
  /** Agents whose sources run; switching another one on needs a restart. */
  readonly runningAgents: readonly AgentKind[];
  /** Creates or removes the login entry (desktop/autostart.ts); resolves to its path. */
  readonly launchAtLogin: (enabled: boolean) => Promise<string>;
}

const passphraseBodySchema = z.strictObject(
  {
    current: z.string({ error: 'current must be a string' }).optional(),
    new: z.string({ error: 'new must be a string (the new passphrase)' }),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: send { "current"?: ..., "new": ... }` : 'expected a JSON object { "current"?: "...", "new": "..." }') },
);

const digest = (text: string): Buffer => createHash('sha256').update(text.trim(), 'utf8').digest();

class WrongPassphrase extends Error {}

const configFailure = (reply: FastifyReply, error: unknown): FastifyReply => {
  // The file itself is in the way (invalid JSON, read-only, a locked directory): the user's to fix.
  if (error instanceof ConfigError) return reply.code(409).send({ error: error.message });
  throw error;
};

export const registerSettingsRoutes = (app: FastifyInstance, deps: SettingsDeps): void => {
  // A config with a few webhooks is more than the 4 KiB the other routes accept.
  app.put('/api/config', { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const parsed = parseConfigPatch(request.body);
    if ('error' in parsed) return reply.code(400).send({ error: parsed.error });
    const { patch } = parsed;
    const before = deps.live.current();
    const loginChange = patch.launch_at_login !== undefined && patch.launch_at_login !== before.launch_at_login ? patch.launch_at_login : undefined;
    if (loginChange !== undefined) {
      try {
        await deps.launchAtLogin(loginChange);
      } catch (error) {
        if (error instanceof AutostartError) return reply.code(error.unsupported ? 400 : 500).send({ error: error.message });
        throw error;
      }
    }
    let after: Config;
    try {
      after = (await updateConfig(deps.env, (stored) => applyConfigPatch(stored, patch))).config;
    } catch (error) {
      // Nothing was saved: the login entry goes back to what the config still says.
      if (loginChange !== undefined) await deps.launchAtLogin(!loginChange).catch(() => undefined);
      return configFailure(reply, error);
    }
    deps.live.set(after);
    const restart = restartRequired(deps.startedWith, after, deps.runningAgents);
    if (restart.length > 0) reply.header(RESTART_HEADER, restart.join(', '));
    return publicConfig(after);
  });

  app.put('/api/passphrase', async (request, reply) => {
    const body = passphraseBodySchema.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: body.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ') });
    if (deps.env.AGENTWATCH_API_PASSPHRASE?.trim()) {
      return reply.code(409).send({ error: 'AGENTWATCH_API_PASSPHRASE is set and overrides the saved passphrase: change it where it is set' });
    }
    const problem = passphraseProblem(body.data.new);
    if (problem) return reply.code(400).send({ error: `new: ${problem}` });
    const { current } = body.data;
    try {
      const saved = await updateConfig(deps.env, (stored) => {
        // Checked under the lock against the saved passphrase, in constant time.
        if (current !== undefined && !timingSafeEqual(digest(current), digest(typeof stored.api_passphrase === 'string' ? stored.api_passphrase : ''))) throw new WrongPassphrase();
        return { ...stored, api_passphrase: body.data.new.trim() };
      });
      return { saved: saved.path, effective: 'at the next start of agentwatch (the running server keeps the current token)' };
    } catch (error) {
      if (error instanceof WrongPassphrase) return reply.code(403).send({ error: 'current: the current passphrase is not the saved one' });
      return configFailure(reply, error);
    }
  });
};
