import { existsSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import { RuntimeError, type CliIo } from '../core/io.js';
import type { Loaded } from '../config/load.js';
import { loadConfigWithNotices } from '../app/config-setup.js';
import { failureReason } from '../sinks/webhook/breaker.js';
import { openDeliveryStore, webhookQueuePath, type DeliveryRecord, type DeliveryStore } from '../sinks/webhook/delivery-store.js';
import { requestFor } from '../sinks/webhook/payload.js';
import { gotPost, type Post, type PostResponse } from '../sinks/webhook/post.js';
import { terminalSafe, terminalSafeLine } from '../core/terminal-safe.js';

/** `agentwatch webhooks log [NAME]` and `agentwatch webhooks replay ID`, over the delivery queue file. */

export const DEFAULT_LOG_LIMIT = 20;

const pad = (text: string, width: number): string => text.padEnd(width);

/** One line per delivery, newest first: when, webhook, state, HTTP status, attempts, latency, id, why. */
const renderLog = (records: readonly DeliveryRecord[]): string => {
  if (records.length === 0) return '';
  const width = Math.max(...records.map((record) => record.webhook.length));
  return records
    .map((record) => {
      const when = record.created_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
      const status = record.status === null ? '-' : String(record.status);
      const attempts = `${record.attempts} attempt${record.attempts === 1 ? '' : 's'}`;
      const latency = record.latency_ms === null ? '-' : `${record.latency_ms} ms`;
      const why = record.state !== 'delivered' && record.error ? `  ${terminalSafeLine(record.error)}` : '';
      return `${when}  ${pad(record.webhook, width)}  ${pad(record.state, 9)}  ${pad(status, 3)}  ${pad(attempts, 11)}  ${pad(latency, 8)}  ${record.id}${why}`;
    })
    .map((line) => `${line.trimEnd()}\n`)
    .join('');
};

const openExisting = (io: CliIo, readonly: boolean): DeliveryStore | undefined => {
  const file = webhookQueuePath(io.env);
  if (!existsSync(file)) return undefined;
  try {
    return openDeliveryStore(file, { readonly });
  } catch (error) {
    throw new RuntimeError(`${file}: cannot read the webhook delivery log: ${(error as Error).message}`);
  }
};

/** The names of every webhook entry of the config, valid or not. */
const configuredNames = (loaded: Loaded): Set<string> => new Set([...loaded.config.webhooks.map((hook) => hook.name), ...loaded.invalidWebhooks.map((hook) => hook.name)]);

/** NAME is neither in the config nor in the log: a mistake, said as `webhooks test NAME` says it (exit 1). */
const unknownWebhook = (loaded: Loaded, name: string): RuntimeError => {
  const known = [...configuredNames(loaded)].map((hook) => `"${hook}"`);
  return new RuntimeError(`no webhook named "${name}" in ${loaded.path} (${known.length > 0 ? `configured: ${known.join(', ')}` : 'no webhooks configured'}) and no delivery of one in the log`);
};

/**
 * `webhooks log [NAME]`. The config is read as every command reads it (an invalid one stops here,
 * exit 1 naming the file) and NAME checked against it: a webhook no longer configured still shows
 * its recorded deliveries, a name found nowhere is an error, as for `webhooks test NAME`.
 */
export const runLog = async (io: CliIo, name: string | undefined, options: { limit: number; json: boolean }): Promise<number> => {
  const loaded = await loadConfigWithNotices(io, { write: false });
  const configured = name === undefined || configuredNames(loaded).has(name);
  const store = openExisting(io, true);
  if (!store) {
    if (!configured) throw unknownWebhook(loaded, name);
    if (options.json) io.stdout.write('[]\n');
    io.stderr.write(terminalSafe(`agentwatch: no webhook deliveries recorded yet (${webhookQueuePath(io.env)} does not exist)\n`));
    return 0;
  }
  try {
    const records = store.recent({ webhook: name, limit: options.limit });
    if (records.length === 0 && !configured) throw unknownWebhook(loaded, name);
    if (options.json) {
      io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      return 0;
    }
    if (records.length === 0) {
      io.stderr.write(terminalSafe(`agentwatch: no deliveries${name === undefined ? '' : ` for webhook "${name}"`} in ${store.file}\n`));
      return 0;
    }
    io.stdout.write(terminalSafe(renderLog(records)));
    const queued = store.queuedCounts('all');
    const waiting = name === undefined ? [...queued.values()].reduce((sum, n) => sum + n, 0) : (queued.get(name) ?? 0);
    if (waiting > 0) io.stderr.write(`agentwatch: ${waiting} deliver${waiting === 1 ? 'y' : 'ies'} still queued\n`);
    return 0;
  } finally {
    store.close();
  }
};

/** One attempt, now, without retries: the answer, or the transport error. */
const attempt = async (post: Post, request: ReturnType<typeof requestFor>, timeoutMs: number): Promise<{ response?: PostResponse; error?: unknown }> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    const response = await Promise.race([
      firstValueFrom(post(request)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no response within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
    return { response };
  } catch (error) {
    return { error };
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Sends one recorded delivery again, now, with the same id and body and the entry's current
 * signature; records the attempt. A failure that is worth retrying puts it back in the queue
 * (the monitor sends it); a 4xx marks it refused.
 */
export const runReplay = async (io: CliIo, idOrPrefix: string, options: { timeoutMs: number; post?: Post }): Promise<number> => {
  const loaded = await loadConfigWithNotices(io, { write: false });
  const store = openExisting(io, false);
  if (!store) throw new RuntimeError(`no webhook deliveries recorded yet (${webhookQueuePath(io.env)} does not exist)`);
  try {
    const found = store.find(idOrPrefix);
    if (found === 'ambiguous') throw new RuntimeError(`"${idOrPrefix}" matches several deliveries; give more of the id (agentwatch webhooks log lists them)`);
    if (!found) throw new RuntimeError(`no delivery "${idOrPrefix}" in ${store.file} (agentwatch webhooks log lists them)`);
    const entry = loaded.config.webhooks.find((hook) => hook.name === found.webhook);
    if (!entry) throw new RuntimeError(`webhook "${found.webhook}" of delivery ${found.id} is no longer in ${loaded.path}`);

    const started = Date.now();
    const outcome = await attempt(options.post ?? gotPost, requestFor(entry, found.id, found.body, io.version, started), options.timeoutMs);
    const latencyMs = Date.now() - started;
    const status = outcome.response?.status ?? null;
    const reason = failureReason(outcome, options.timeoutMs);
    const result = { at: Date.now(), status, latencyMs };
    if (status !== null && status >= 200 && status <= 299) {
      store.markDelivered(found.id, { ...result, error: null });
      io.stdout.write(terminalSafe(`ok      ${found.webhook}  ${terminalSafeLine(reason)} (${latencyMs} ms)  delivery ${found.id}\n`));
      return 0;
    }
    if (status !== null && status < 500) store.markRefused(found.id, { ...result, error: reason });
    else {
      store.requeue(found.id);
      store.recordRetry(found.id, { ...result, error: reason });
    }
    io.stdout.write(terminalSafe(`failed  ${found.webhook}  ${terminalSafeLine(reason)} (${latencyMs} ms)  delivery ${found.id}\n`));
    io.stderr.write(
      status !== null && status < 500
        ? `agentwatch: the receiver refused delivery ${found.id}; not queued again\n`
        : `agentwatch: delivery ${found.id} is queued again; agentwatch retries it while it runs\n`,
    );
    return 1;
  } finally {
    store.close();
  }
};
