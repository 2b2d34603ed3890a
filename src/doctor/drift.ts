import type { DiagnosticEvent, SessionState } from '../core/session.js';
import { locationOf } from '../core/diagnostics.js';

/**
 * Drift: agent versions on this machine that are newer than the ones the reader was checked
 * against (the descriptor's `checkedVersions`), and the records of any version the reader does
 * not know, with the sessions those records may leave shown wrong (docs/doctor.md).
 */
export interface AgentDrift {
  readonly checked_versions: readonly string[];
  /** The versions that wrote sessions here, oldest-looking first. */
  readonly seen_versions: readonly SeenVersion[];
  /** Per version (`''`: the agent records none), what its files hold that the reader does not know. */
  readonly unknown_records: readonly UnknownByVersion[];
}

interface SeenVersion {
  readonly version: string;
  readonly sessions: number;
  /** Newer than every version the reader was checked against. */
  readonly newer: boolean;
}

interface UnknownByVersion {
  readonly version: string;
  readonly newer: boolean;
  /** Each kind of record not known (`record type "x"`), with the number of files holding it. */
  readonly kinds: readonly { readonly kind: string; readonly files: number }[];
  /** Where one of them is: `file:line`. */
  readonly example: string;
  /** The sessions whose files hold them: what they show may be incomplete. */
  readonly sessions: readonly string[];
}

const NUMBER = /\d+(?:\.\d+)*/g;

/** The dotted numbers of a version string (`0.135-0.160` gives both ends, `session format 3` gives 3). */
const numbersIn = (text: string): number[][] => [...text.matchAll(NUMBER)].map((m) => m[0].split('.').map(Number));

const compareParts = (a: readonly number[], b: readonly number[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

/** What a version string says before its number (`session format `, `composer v`, or nothing for an app version). */
const labelOf = (text: string): string => text.slice(0, text.search(/\d/)).trim();

/**
 * The highest version named by those of `checked` with the label `label` (a format version is
 * never compared with an app version), or undefined when none names a number.
 */
export const newestChecked = (checked: readonly string[], label = ''): number[] | undefined =>
  checked
    .filter((entry) => labelOf(entry) === label)
    .flatMap(numbersIn)
    .reduce<number[] | undefined>((best, parts) => (best === undefined || compareParts(parts, best) > 0 ? parts : best), undefined);

/** True when `version` names a number above every version of its kind that `checked` names. */
export const isNewerThanChecked = (version: string, checked: readonly string[]): boolean => {
  const newest = newestChecked(checked, labelOf(version));
  const own = numbersIn(version)[0];
  return newest !== undefined && own !== undefined && compareParts(own, newest) > 0;
};

const compareVersions = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/** What an unknown-record diagnostic is about: the part of its message before "is not known". */
const kindOf = (message: string): string => message.split(' is not known')[0] ?? message;

/** Pure: one agent's drift from its sessions and its diagnostics. */
export const agentDrift = (checked: readonly string[], sessions: readonly SessionState[], diagnostics: readonly DiagnosticEvent[]): AgentDrift => {
  const perVersion = new Map<string, number>();
  for (const s of sessions) if (s.version !== '') perVersion.set(s.version, (perVersion.get(s.version) ?? 0) + 1);
  const seen = [...perVersion].sort(([a], [b]) => compareVersions(a, b)).map(([version, count]) => ({ version, sessions: count, newer: isNewerThanChecked(version, checked) }));

  const unknown = new Map<string, DiagnosticEvent[]>();
  for (const d of diagnostics) {
    if (d.code !== 'E_UNKNOWN_RECORD') continue;
    const version = d.version ?? '';
    unknown.set(version, [...(unknown.get(version) ?? []), d]);
  }
  const unknownRecords = [...unknown].sort(([a], [b]) => compareVersions(a, b)).map(([version, found]): UnknownByVersion => {
    const files = new Map<string, Set<string>>();
    for (const d of found) {
      const kind = kindOf(d.message);
      files.set(kind, (files.get(kind) ?? new Set()).add(d.path ?? ''));
    }
    const example = found.find((d) => d.line !== undefined) ?? found[0];
    return {
      version,
      newer: version !== '' && isNewerThanChecked(version, checked),
      kinds: [...files].map(([kind, paths]) => ({ kind, files: paths.size })),
      example: example ? locationOf(example) : '',
      sessions: [...new Set(found.flatMap((d) => (d.sessionId ? [d.sessionId] : [])))].sort(),
    };
  });
  return { checked_versions: checked, seen_versions: seen, unknown_records: unknownRecords };
};
