import { statSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config/effective.js';
import type { Env } from '../../../config/paths.js';
import { splitCommand } from '../../../desktop/command-line.js';
import { editorPlan } from '../../../desktop/editor.js';
import type { Step } from '../../../desktop/spawn-detached.js';
import { terminalPlan } from '../../../desktop/terminal.js';
import type { Finder } from '../../../desktop/which.js';
import type { SessionStore } from '../store.js';

/**
 * `POST /api/sessions/:id/actions/resume` and `/actions/editor`: start programs on this machine,
 * so beyond the token they are refused (403) unless the server listens on a loopback address and
 * the request comes from the dashboard's own origin (`Sec-Fetch-Site: same-origin`) or from a
 * client that is no web page at all (no `Origin`). They take no input: what runs is the
 * session's own resume command, or the configured editor on the session's own directory.
 */

export interface ActionsDeps {
  readonly store: SessionStore;
  readonly config: () => Config;
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  /** True when the server listens on a loopback address only. */
  readonly loopback: boolean;
  readonly finder: Finder;
  /** Starts one program on its own (spawn-detached.ts). */
  readonly start: (step: Step, options: { readonly cwd?: string; readonly env: Env }) => Promise<void>;
}

/** A resume command's words: an agent's name, flags and a session id, nothing a shell would read. */
const SAFE_WORD = /^[\w@%+=:,./-]+$/;

/** Why a request is not from the dashboard's origin, or undefined when it may act. Pure over headers. */
export const notSameOrigin = (headers: FastifyRequest['headers']): string | undefined => {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' ? undefined : `Sec-Fetch-Site: ${site}`;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  // A browser without Fetch Metadata: its Origin must be this very server.
  let host = '';
  try {
    host = new URL(String(origin)).host;
  } catch {
    host = '';
  }
  return host !== '' && host === headers.host ? undefined : `Origin: ${String(origin).slice(0, 100)}`;
};

const refuse = (reply: FastifyReply, status: number, error: string): FastifyReply => reply.code(status).send({ error });

export const registerActionRoutes = (app: FastifyInstance, deps: ActionsDeps): void => {
  /** The guards, the session and its directory; undefined when the reply was already sent. */
  const prepare = (request: FastifyRequest, reply: FastifyReply): { cwd: string; resume: string } | undefined => {
    if (!deps.loopback) {
      refuse(reply, 403, 'actions start programs on this machine: refused unless agentwatch listens on a loopback address (--host 127.0.0.1)');
      return undefined;
    }
    const foreign = notSameOrigin(request.headers);
    if (foreign) {
      refuse(reply, 403, `cross-origin request refused (${foreign}): actions are taken from the dashboard of this server`);
      return undefined;
    }
    const body = request.body;
    if (body !== undefined && body !== null && !(typeof body === 'object' && Object.keys(body).length === 0)) {
      refuse(reply, 400, 'this action takes no input: it runs the session\'s own command');
      return undefined;
    }
    const { id } = request.params as { id: string };
    if (id.length > 512) {
      refuse(reply, 400, 'session id must be at most 512 characters');
      return undefined;
    }
    const session = deps.store.current().find(id);
    if (!session) {
      refuse(reply, 404, `unknown session ${JSON.stringify(id)}`);
      return undefined;
    }
    if (!session.cwd || !statSync(session.cwd, { throwIfNoEntry: false })?.isDirectory()) {
      refuse(reply, 409, `the session's directory ${JSON.stringify(session.cwd)} does not exist on this machine`);
      return undefined;
    }
    return { cwd: session.cwd, resume: session.resume_command };
  };

  const run = async (reply: FastifyReply, steps: readonly Step[], cwd: string): Promise<FastifyReply | undefined> => {
    try {
      for (const step of steps) await deps.start(step, { cwd, env: deps.env });
      return undefined;
    } catch (error) {
      return refuse(reply, 500, (error as Error).message);
    }
  };

  app.post('/api/sessions/:id/actions/resume', async (request, reply) => {
    const target = prepare(request, reply);
    if (!target) return reply;
    const argv = splitCommand(target.resume);
    if (argv.length === 0) return refuse(reply, 409, 'this session has no resume command (its agent offers none)');
    if (!argv.every((word) => SAFE_WORD.test(word))) return refuse(reply, 409, `refused: the resume command ${JSON.stringify(target.resume.slice(0, 200))} holds characters a resume command never has`);
    const plan = terminalPlan({ choice: deps.config().terminal, argv, cwd: target.cwd, keepShell: true }, deps.platform, deps.finder);
    if ('error' in plan) return refuse(reply, 409, plan.error);
    return (await run(reply, plan.steps, target.cwd)) ?? { ok: true, terminal: plan.terminal, command: target.resume, cwd: target.cwd };
  });

  app.post('/api/sessions/:id/actions/editor', async (request, reply) => {
    const target = prepare(request, reply);
    if (!target) return reply;
    const config = deps.config();
    const plan = editorPlan({ configured: config.editor, env: deps.env, cwd: target.cwd, terminal: config.terminal }, deps.platform, deps.finder);
    if ('error' in plan) return refuse(reply, 409, plan.error);
    return (await run(reply, plan.steps, target.cwd)) ?? { ok: true, editor: plan.editor, from: plan.from, ...(plan.terminal ? { terminal: plan.terminal } : {}), cwd: target.cwd };
  });
};
