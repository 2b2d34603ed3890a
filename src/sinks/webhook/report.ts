import { TimeoutError } from 'rxjs';
import type { InvalidWebhook } from '../../config/effective.js';
import { HttpStatusError, type DeliveryReport } from './deliver.js';

const SNIPPET_CHARS = 200;

/** A receiver's body on one line, cut short: enough to see "invalid token", never a whole page. */
export const bodySnippet = (body: string): string => {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
};

/** Why one attempt failed, in words a user can act on. */
export const describeFailure = (error: unknown, timeoutMs: number): string => {
  if (error instanceof HttpStatusError) {
    const snippet = bodySnippet(error.response.body);
    return snippet ? `${error.message}: ${snippet}` : error.message;
  }
  if (error instanceof TimeoutError) return `no response within ${timeoutMs / 1000} s`;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
};

/** The log line of a report, or undefined when there is nothing worth saying (a clean delivery). */
export const describeReport = (report: DeliveryReport, timeoutMs: number): { level: 'info' | 'warn'; message: string } | undefined => {
  const who = `webhook "${report.entry}"`;
  switch (report.kind) {
    case 'delivered':
      return report.attempts > 1 ? { level: 'info', message: `${who}: delivery ${report.id} succeeded on attempt ${report.attempts}` } : undefined;
    case 'failed': {
      const reason = describeFailure(report.error, timeoutMs);
      if (report.attempts === 0) return { level: 'warn', message: `${who}: delivery ${report.id} could not be built: ${reason}` };
      return report.error instanceof HttpStatusError && report.error.response.status < 500
        ? { level: 'warn', message: `${who}: delivery ${report.id} refused, not retried: ${reason}` }
        : { level: 'warn', message: `${who}: delivery ${report.id} failed after ${report.attempts} attempt${report.attempts === 1 ? '' : 's'}: ${reason}` };
    }
    case 'overflow_started':
      return { level: 'warn', message: `${who}: queue full (${report.capacity} waiting); dropping new deliveries until the receiver catches up` };
    case 'overflow_ended':
      return { level: 'warn', message: `${who}: receiver caught up; ${report.dropped} deliver${report.dropped === 1 ? 'y was' : 'ies were'} dropped` };
    default:
      return report satisfies never;
  }
};

/** One line per invalid entry, naming it and everything wrong with it. */
export const describeInvalidWebhook = (invalid: InvalidWebhook): string =>
  `webhook "${invalid.name}" (entry ${invalid.index + 1}) is ignored: ${invalid.problems.join('; ')}`;
