import { createColors } from 'picocolors';
import { isWebhooksSubcommand, WEBHOOKS_FLAGS, webhooksInput } from './command-flags.js';
import { parseFlags } from './flags.js';
import { RuntimeError, UsageError, type CliIo } from '../core/io.js';
import { loadConfig } from '../config/load.js';
import { configNotices } from '../config/notices.js';
import type { WebhookEntry } from '../config/schema.js';
import { shouldColor } from '../limits/palette.js';
import { MIN_ID_PREFIX } from '../sinks/webhook/delivery-store.js';
import { gotPost } from '../sinks/webhook/post.js';
import { probeWebhook, type ProbeResult } from '../sinks/webhook/probe.js';
import { describeInvalidWebhook } from '../sinks/webhook/report.js';
import { DEFAULT_LOG_LIMIT, runLog, runReplay } from './webhooks-log.js';
import { terminalSafe, terminalSafeLine } from '../core/terminal-safe.js';

const COMMAND = 'agentwatch webhooks';
const SUBCOMMANDS = 'test [NAME] | log [NAME] | replay ID';
const DEFAULT_TIMEOUT_SEC = 10;

/** Scheme, host and port only: webhook paths often carry a token that has no place on a screen. */
const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/** The entries to probe, or a RuntimeError naming what is wrong with NAME. */
const pickTargets = (entries: readonly WebhookEntry[], invalidNames: ReadonlyMap<string, string>, file: string, name: string | undefined): WebhookEntry[] => {
  if (name === undefined) return entries.filter((entry) => entry.enabled);
  const named = entries.filter((entry) => entry.name === name);
  if (named.length > 0) return named;
  const invalid = invalidNames.get(name);
  if (invalid) throw new RuntimeError(invalid);
  const known = entries.map((entry) => `"${entry.name}"`);
  throw new RuntimeError(`no webhook named "${name}" in ${file} (${known.length > 0 ? `configured: ${known.join(', ')}` : 'no valid webhooks configured'})`);
};

const resultLine = (result: ProbeResult, width: number, color: ReturnType<typeof createColors>): string => {
  const verdict = result.ok ? color.green('ok    ') : color.red('failed');
  const how = `${result.entry.secret ? (result.entry.signature === 'standard-webhooks' ? 'signed, standard-webhooks' : 'signed') : 'unsigned'}, ${result.ms} ms`;
  // The detail may quote the receiver's body: made safe before it is colored.
  return `${verdict}  ${terminalSafeLine(result.entry.name).padEnd(width)}  ${terminalSafeLine(result.detail)} ${color.gray(terminalSafeLine(`(${how}, ${originOf(result.entry.url)})`))}`;
};

/**
 * `agentwatch webhooks log [NAME]` and `replay ID`: webhooks-log.ts.
 *
 * `agentwatch webhooks test [NAME]`: one signed sample delivery to each enabled entry (or to
 * NAME, enabled or not), the receiver's answer printed per entry. Reads the config without ever
 * writing it. Exit 1 when a delivery failed, NAME is unknown or invalid, or (without NAME) the
 * config holds invalid entries or no enabled one (nothing was tested).
 */
export const run = async (io: CliIo): Promise<number> => {
  const [subcommand, name, extra] = webhooksInput(io.argv);
  if (subcommand === undefined) {
    throw new UsageError(
      `Missing subcommand: ${COMMAND} ${SUBCOMMANDS}`,
      `test sends a signed sample delivery, log lists the latest deliveries, replay sends one again; run ${COMMAND} --help for more`,
    );
  }
  if (!isWebhooksSubcommand(subcommand)) {
    throw new UsageError(`Unknown subcommand "${subcommand}" for ${COMMAND} (expected: test, log or replay)`, `Run ${COMMAND} --help`);
  }
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}" for ${COMMAND} ${subcommand}`, `Run ${COMMAND} --help`);
  // Each subcommand takes only its own flags: `log --timeout 5` is a usage error, not ignored.
  const command = `${COMMAND} ${subcommand}`;
  if (subcommand === 'log') {
    const { flags } = parseFlags(io.argv, WEBHOOKS_FLAGS.log, command);
    return runLog(io, name, { limit: flags.limit ?? DEFAULT_LOG_LIMIT, json: flags.json });
  }
  const { flags } = parseFlags(io.argv, WEBHOOKS_FLAGS[subcommand], command);
  if (subcommand === 'replay') {
    if (name === undefined) throw new UsageError(`Missing delivery id: ${COMMAND} replay ID`, `Run ${COMMAND} log to list deliveries`);
    // A bad value, not a delivery that is missing: the store never matches a prefix this short.
    if (name.length < MIN_ID_PREFIX) throw new UsageError(`Delivery id "${name}" is too short: give the id, or at least its first ${MIN_ID_PREFIX} characters`, `Run ${COMMAND} log to list deliveries`);
    return runReplay(io, name, { timeoutMs: (flags.timeout ?? DEFAULT_TIMEOUT_SEC) * 1000 });
  }

  const loaded = await loadConfig(io.env, { write: false });
  // The config's notices as every command prints them, but the invalid entries in this command's own words below.
  for (const line of configNotices(loaded.path, { warnings: loaded.warnings, invalidWebhooks: [] })) io.stderr.write(terminalSafe(`${line}\n`));
  const invalidNames = new Map(loaded.invalidWebhooks.map((invalid) => [invalid.name, describeInvalidWebhook(invalid)]));
  if (name === undefined) for (const line of invalidNames.values()) io.stderr.write(terminalSafe(`agentwatch: ${line}\n`));

  const targets = pickTargets(loaded.config.webhooks, invalidNames, loaded.path, name);
  if (targets.length === 0) {
    // Nothing was tested: a failure for a script that checks its receivers, with the way forward.
    const how =
      loaded.config.webhooks.length > 0
        ? `enable one ("enabled": true) or name it: ${COMMAND} test NAME`
        : `add one to "webhooks" there, e.g. {"name": "team", "url": "https://example.com/hook"} (docs/webhooks.md)`;
    io.stderr.write(terminalSafe(`agentwatch: no enabled webhooks in ${loaded.path}; nothing to test. To test one, ${how}\n`));
    return 1;
  }
  for (const target of targets) {
    if (!target.enabled) io.stderr.write(terminalSafe(`agentwatch: webhook "${target.name}" is disabled (enabled: false); testing it because it was named\n`));
  }

  const timeoutMs = (flags.timeout ?? DEFAULT_TIMEOUT_SEC) * 1000;
  const results = await Promise.all(
    targets.map((entry) => probeWebhook(entry, { post: gotPost, timeoutMs, version: io.version, cwd: io.cwd, now: () => Date.now() })),
  );
  const colored = shouldColor(io.env, io.stdout.isTTY);
  const color = createColors(colored);
  const width = Math.max(...results.map((result) => result.entry.name.length));
  for (const result of results) io.stdout.write(terminalSafe(`${resultLine(result, width, color)}\n`, { colored: colored }));

  const failed = results.filter((result) => !result.ok).length;
  if (failed > 0) io.stderr.write(`agentwatch: ${failed} of ${results.length} webhook deliver${results.length === 1 ? 'y' : 'ies'} failed\n`);
  return failed > 0 || (name === undefined && loaded.invalidWebhooks.length > 0) ? 1 : 0;
};
