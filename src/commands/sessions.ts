import { once } from 'node:events';
import path from 'node:path';
import { filter, firstValueFrom, timeout, type Observable } from 'rxjs';
import { SESSIONS_FLAGS } from './command-flags.js';
import { parseFlags, type ParsedFlags } from './flags.js';
import { UsageError, type CliIo } from '../core/io.js';
import type { Loaded } from '../config/load.js';
import { loadSessionNames, type SessionNames } from '../config/session-names.js';
import type { AgentKind } from '../core/agents.js';
import { describeDiagnostic, severityOf } from '../core/diagnostics.js';
import type { DiagnosticEvent, SessionDetail, SessionState } from '../core/session.js';
import { locationProblem, type LocationCheck } from '../doctor/locations.js';
import { oneShotMessage } from '../doctor/report.js';
import type { PipelineFrame } from '../streams/frames.js';
import { countAnyAge, windowMs, type VisibilityOptions } from '../streams/visibility.js';
import { createListing } from '../streams/listing.js';
import { toDetail } from '../streams/views.js';
import { activityRules } from '../streams/activity.js';
import { createWorktreeLookup } from '../app/worktree.js';
import { dirForms } from '../util/dir-forms.js';
import { jsonArrayChunks } from '../util/json-array-chunks.js';
import { loadConfigWithNotices, pickAgents, stderrLogger } from '../app/config-setup.js';
import { startSourcePipeline } from '../app/pipeline-setup.js';
import { renderSessionsTable } from './sessions-render.js';
import { terminalSafe, terminalSafeFields } from '../core/terminal-safe.js';

/**
 * `agentwatch sessions [--all | --dir DIR] [--agent NAME] [--window MINUTES] [--json] [--demo]`:
 * a one-shot snapshot. Runs the sources once (no watching) until every enabled one has finished
 * its discovery pass, with a bounded wait, prints the sessions newest first, and exits 0.
 */

/** How long the first discovery pass may take before we print what we have. */
export const DISCOVERY_WAIT_MS = 120_000;

const COMMAND = 'agentwatch sessions';

/**
 * With `--window`, transcripts last written this long before the window began are not read
 * either: a file's time can lag its last record's by a clock tick (2 s on FAT), and the listing
 * is made a moment after the pass started.
 */
const READ_SINCE_SLACK_MS = 60_000;

/** Colors only on a TTY; NO_COLOR disables and FORCE_COLOR forces them (docs/configuration.md). */
const useColor = (io: CliIo): boolean => {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.stdout.isTTY === true;
};

/** The frame once every source is ready, or the latest one when the wait runs out (with a warning). */
const discover = async (frame$: Observable<PipelineFrame>, io: CliIo): Promise<PipelineFrame> => {
  let latest: PipelineFrame | undefined;
  const ready$ = frame$.pipe(
    filter((frame) => {
      latest = frame;
      return frame.state.ready;
    }),
    timeout({ first: DISCOVERY_WAIT_MS }),
  );
  try {
    return await firstValueFrom(ready$);
  } catch (error) {
    if (!latest) throw error;
    const waiting = latest.state.expectedAgents.filter((agent) => !latest?.state.readyAgents.includes(agent));
    io.stderr.write(`agentwatch: discovery of ${waiting.join(', ')} did not finish within ${DISCOVERY_WAIT_MS / 1000} s; listing what was found\n`);
    return latest;
  }
};

/** One place an agent's source reads, checked as doctor checks it. */
interface CheckedPlace {
  readonly agent: AgentKind;
  readonly check: LocationCheck;
}

/**
 * The places of `agents` that keep sessions from being read (a `claude_dirs` entry that does not
 * exist or holds no projects/, a file where a directory belongs, an unreadable one): doctor's
 * checks, a stat and an access per place, made while the sources read.
 */
const checkPlaces = async (io: CliIo, loaded: Loaded, agents: readonly AgentKind[]): Promise<CheckedPlace[]> => {
  const { checkAgentLocations } = await import('../doctor/sessions-locations.js');
  const checked = await Promise.all(agents.map(async (agent) => (await checkAgentLocations(agent, loaded.config, io.env, io.platform)).map((check) => ({ agent, check }))));
  return checked.flat();
};

/**
 * What needs the user, one line each (duplicates folded), plus a pointer to doctor: the places
 * that keep sessions from being read (unless a diagnostic of the source says it of the same
 * path), then the diagnostics, worded for a command that reads once.
 */
const attentionLines = (diagnostics$: Observable<DiagnosticEvent>, places: readonly CheckedPlace[]): string[] => {
  const lines = new Set<string>();
  const said = new Set<string>();
  diagnostics$.subscribe((d) => {
    if (severityOf(d.code) !== 'attention') return;
    lines.add(describeDiagnostic({ ...d, message: oneShotMessage(d.message) }));
    if (d.path) said.add(d.path);
  }).unsubscribe();
  const located = places.flatMap(({ agent, check }) => (said.has(check.path) ? [] : (locationProblem(agent, check) ?? [])));
  const all = [...new Set(located), ...lines];
  return all.length === 0 ? [] : [...all, 'run agentwatch doctor for details'];
};

const describeScope = (dir: string | undefined, windowMinutes: number | undefined, agents: readonly AgentKind[]): string =>
  [
    dir === undefined ? 'in any directory' : `in ${dir} (or below)`,
    windowMinutes === undefined ? '' : `active in the last ${windowMinutes} min`,
    agents.length === 0 ? 'with no agent enabled' : `from ${agents.join(', ')}`,
  ]
    .filter(Boolean)
    .join(', ');

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, SESSIONS_FLAGS, COMMAND);
  if (input.length > 0) throw new UsageError(`Unexpected argument "${input[0]}" for ${COMMAND}`, `Run ${COMMAND} --help`);
  if (flags.all && flags.dir !== undefined) throw new UsageError('--all and --dir cannot be combined', `Run ${COMMAND} --help`);
  if (flags.dir !== undefined && flags.dir.trim() === '') throw new UsageError('--dir needs a directory', `Run ${COMMAND} --help`);
  // Demo sessions live in made-up directories: without --dir, --demo lists them all.
  const everyDir = flags.all || (flags.demo && flags.dir === undefined);
  const dir = everyDir ? undefined : path.resolve(io.cwd, flags.dir ?? '.');

  // A snapshot needs no config file: one that cannot be read is said once, and the defaults list.
  const loaded = await loadConfigWithNotices(io, { write: true, brokenFile: 'defaults' });
  const agents = pickAgents(io, loaded, flags.agent, 'skip');
  const names = await loadSessionNames(io.env);
  if (names.problem) io.stderr.write(terminalSafe(`agentwatch: ${names.problem}\n`));

  // Configuration mistakes are said here too, not only by doctor (docs/doctor.md): checked meanwhile.
  const places = flags.demo ? Promise.resolve([]) : checkPlaces(io, loaded, agents).catch((): CheckedPlace[] => []);
  // A window lists no session whose transcripts were all written before it began: those are not read.
  const window = windowMs(flags.window);
  const readSince = window === undefined || flags.demo ? undefined : Date.now() - window - READ_SINCE_SLACK_MS;
  const log = stderrLogger(io, { info: false });
  const { ctx, pipeline, stop, prefetchDetails } = await startSourcePipeline(io, loaded, { agents, demo: flags.demo, watch: false, log, ...(readSince === undefined ? {} : { readSince }) });
  try {
    const frame = await discover(pipeline.frame$, io);
    // An empty window leads to the older sessions: they are counted by a pass that reads every file.
    const everyAge = async (): Promise<PipelineFrame> => {
      if (readSince === undefined) return frame;
      const full = await startSourcePipeline(io, loaded, { agents, demo: flags.demo, watch: false, log });
      try {
        return await discover(full.pipeline.frame$, io);
      } finally {
        await full.stop();
      }
    };
    // The discovery's garbage goes before the listing allocates (long-run-heap.ts: the peak RSS).
    (await import('../util/long-run-heap.js')).collectGarbage();
    return await report(io, frame, pipeline.diagnostics$, { now: ctx.now(), flags, dir, agents, loaded, names: names.names, prefetchDetails, places: await places, everyAge });
  } finally {
    // The discovery cache is written once the listing is out: the user waits for the listing, not
    // for the cache, and a piped reader drains it meanwhile.
    await stop();
  }
};

interface ReportScope {
  readonly now: number;
  readonly flags: ParsedFlags<typeof SESSIONS_FLAGS>;
  readonly dir: string | undefined;
  readonly agents: readonly AgentKind[];
  readonly loaded: Loaded;
  readonly names: SessionNames;
  readonly prefetchDetails: (states: Iterable<SessionState>) => void;
  readonly places: readonly CheckedPlace[];
  /** The frame of a pass over every file, whatever its age (the one listed, unless it skipped old files). */
  readonly everyAge: () => Promise<PipelineFrame>;
}

/**
 * The empty result when no agent is read at all: the one asked for (`--agent NAME`) or every
 * one is disabled in the config. Then nothing was looked for, and how to enable it is the answer.
 */
const nothingEnabled = (flags: ParsedFlags<typeof SESSIONS_FLAGS>, loaded: Loaded): string => {
  const asked = flags.agent !== undefined && flags.agent !== 'all' ? flags.agent : undefined;
  return asked !== undefined
    ? `No sessions from ${asked}: it is disabled in the config (agents.${asked}: false). To list them, set "${asked}": true under "agents" in ${loaded.path}.`
    : `No sessions: every agent is disabled in the config. To list sessions, set an agent to true under "agents" in ${loaded.path} (e.g. "claude": true).`;
};

/** Prints the listing of `frame` (or what the empty listing leads to) and the problems that need the user; the exit code. */
const report = async (io: CliIo, frame: PipelineFrame, diagnostics$: Observable<DiagnosticEvent>, scope: ReportScope): Promise<number> => {
  const { now, flags, dir, agents, loaded, names, prefetchDetails, places, everyAge } = scope;
  // Silence is a bug: what kept sessions from being read is said, once each (doctor has the rest).
  for (const line of attentionLines(diagnostics$, places)) io.stderr.write(terminalSafe(`agentwatch: ${line}\n`));

  const visibility: VisibilityOptions = {
    windowMinutes: flags.window,
    excludeCwdSubstrings: loaded.config.exclude_cwd_substrings,
    agents: new Set(agents),
    waitingTimeoutMinutes: loaded.config.waiting_timeout_minutes,
    // The directory as named and as it really is: a symlinked --dir finds what the agents recorded.
    ...(dir === undefined ? {} : { dirs: dirForms(dir) }),
  };
  // The one read model every interface lists through (streams/listing.ts), read once.
  const listing = createListing({ visibility: () => visibility, names });
  listing.push(frame);
  listing.refresh(now);
  const entries = listing.sessions();
  const listed = entries.map((entry) => entry.state);
  const worktree = createWorktreeLookup();
  const rules = activityRules(visibility.waitingTimeoutMinutes);
  const detailOf = (session: SessionState): SessionDetail => toDetail(session, { now, customNames: names, worktree: worktree(session.cwd), rules });

  if (flags.json) {
    // Written a chunk at a time, each detail built when its turn comes (json-array-chunks.ts). A
    // pipe can take less than we write: waiting for it keeps the listing out of memory (not
    // waiting, a slow reader made the process hold all of it). The details restored
    // from the discovery cache are read in one pass, not one lookup each.
    prefetchDetails(listed);
    for (const chunk of jsonArrayChunks(listed, detailOf)) if (io.stdout.write(chunk) === false) await once(io.stdout, 'drain');
    io.stdout.write('\n');
  } else if (listed.length > 0) {
    // Summaries: the table shows none of a detail's fields but the name, which may be the latest
    // prompt: the restored details are read in one pass, as for --json.
    prefetchDetails(listed);
    const color = useColor(io);
    io.stdout.write(terminalSafe(renderSessionsTable(entries.map((entry) => terminalSafeFields(entry.summary)), { now, color }), { colored: color }));
  }

  if (listed.length === 0 && agents.length === 0) {
    (flags.json ? io.stderr : io.stdout).write(terminalSafe(`${nothingEnabled(flags, loaded)}\n`));
  } else if (listed.length === 0) {
    // Loaded only here: it pulls in every source's path module.
    const { lookedInLines } = await import('../doctor/sessions-locations.js');
    const lookedIn = flags.demo ? ['Looked in:', '  (demo sessions)'] : lookedInLines(agents, loaded.config, io.env, io.platform);
    // Lead somewhere: what exists outside this scope or window, and the command that shows it.
    const { sessions } = (await everyAge()).state;
    const anywhere = countAnyAge(sessions.values(), now, { ...visibility, dirs: undefined });
    const inScopeAnyAge = countAnyAge(sessions.values(), now, visibility);
    const next =
      flags.window !== undefined && inScopeAnyAge > 0
        ? [`${inScopeAnyAge === 1 ? '1 session here is' : `${inScopeAnyAge} sessions here are`} older than ${flags.window} min: run it without --window (or with a larger one).`]
        : dir !== undefined && anywhere > 0
          ? [`${anywhere} session${anywhere === 1 ? '' : 's'} in other directories: agentwatch sessions --all`]
          : flags.demo || anywhere > 0
            ? []
            : [
                // Nothing in any directory: "here" would suggest another folder holds some.
                `No agent has written a session ${dir === undefined ? 'anywhere agentwatch looks' : 'here, nor anywhere else agentwatch looks'}. Data kept elsewhere: agentwatch doctor says how to point agentwatch at it. To see what agentwatch shows: agentwatch sessions --demo (or agentwatch --demo)`,
              ];
    const message = [`No sessions ${describeScope(dir, flags.window, agents)}.`, ...next, ...lookedIn].join('\n');
    (flags.json ? io.stderr : io.stdout).write(terminalSafe(`${message}\n`));
  }
  return 0;
};
