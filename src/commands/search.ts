import { createColors } from 'picocolors';
import { SEARCH_FLAGS } from './command-flags.js';
import { parseFlags } from './flags.js';
import { RuntimeError, UsageError, type CliIo } from '../core/io.js';
import type { Loaded } from '../config/load.js';
import { loadSessionNames } from '../config/session-names.js';
import { timeOf } from '../core/time.js';
import { shouldColor } from '../limits/palette.js';
import { startSourcePipeline } from '../app/pipeline-setup.js';
import { openCaughtUpIndex, scopeOf } from '../search/catch-up.js';
import { holdsNoSession, searchDbPath } from '../search/index-db.js';
import { describeFault, storageFault } from '../util/storage-fault.js';
import { QuerySyntaxError, searchIndex, toJsonResults, type SearchResult } from '../search/query.js';
import { HIT_CLOSE, HIT_OPEN, renderHits } from '../search/snippet.js';
import { DEFAULT_LIMIT, parseAgentList } from '../search/options.js';
import { loadConfigWithNotices, stderrLogger } from '../app/config-setup.js';
import type { AgentKind } from '../core/agents.js';
import { terminalSafe, terminalSafeFields } from '../core/terminal-safe.js';

/**
 * `agentwatch search QUERY [--agent LIST] [--limit N] [--json] [--reindex]` (docs/search.md):
 * catch the index up (only what was appended since the last search is read), then the sessions
 * ranked by bm25 with their best snippets. The query may come from stdin (`-`, or no argument
 * with a pipe). Exit 0 (also with no hits), 2 for a malformed query or bad flags.
 */
const COMMAND = 'agentwatch search';

const readStdin = async (io: CliIo): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin as AsyncIterable<Buffer | string>) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').trim();
};

const projectOf = (cwd: string): string => cwd.split('/').filter(Boolean).at(-1) ?? cwd;

/** One block per session: title, agent · project · path · last activity, the snippets, the resume command. */
export const renderResults = (results: readonly SearchResult[], color: boolean): string => {
  const c = createColors(color);
  const mark = color ? (hit: string) => c.bold(c.yellow(hit)) : undefined;
  return results
    // Made safe before it is colored: the colored whole keeps only our own colors.
    .map((found) => terminalSafeFields(found, { keep: `${HIT_OPEN}${HIT_CLOSE}` }))
    .map((r) => {
      const project = projectOf(r.cwd);
      const when = timeOf(r.last_activity) > 0 ? r.last_activity.replace('T', ' ').slice(0, 16) : 'time unknown';
      const head = `${c.bold(r.display_name)}  ${c.dim(`${r.agent} · ${project ? `${project} · ` : ''}${r.cwd || 'cwd unknown'} · ${when}`)}`;
      const lines = r.snippets.map((s) => `  ${c.dim(s.role === 'user' ? 'you  ' : 'agent')} ${renderHits(s.text, mark)}`);
      return [head, ...lines, `  ${c.cyan(r.resume_command)}`].join('\n');
    })
    .join('\n\n');
};

/**
 * The empty result when none of the agents searched had a session to index, with the places
 * looked in: of those agents only (`--agent LIST`), as `sessions --agent` says.
 */
const nothingIndexedLines = async (io: CliIo, loaded: Loaded, agents: readonly AgentKind[], asked: boolean, query: string): Promise<string[]> => {
  // Loaded only here: it pulls in every source's path module.
  const { lookedInLines } = await import('../doctor/sessions-locations.js');
  const why =
    agents.length > 0 ? `no session of ${agents.join(', ')} was found to search` : asked ? 'no enabled agent to search' : `every agent is disabled in ${loaded.path}`;
  return [`No session mentions ${JSON.stringify(query)}: ${why}.`, ...lookedInLines(agents, loaded.config, io.env, io.platform)];
};

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, SEARCH_FLAGS, COMMAND);
  const fromStdin = input.length === 0 || (input.length === 1 && input[0] === '-');
  if (fromStdin && io.stdin.isTTY) throw new UsageError('search needs a query', `Run ${COMMAND} --help`);
  const query = fromStdin ? await readStdin(io) : input.join(' ').trim();
  if (query === '') throw new UsageError('search needs a query', `Run ${COMMAND} --help`);
  const asked = parseAgentList(flags.agent);

  // A search needs no config file: one that cannot be read is said once, and the defaults apply.
  const loaded = await loadConfigWithNotices(io, { write: true, brokenFile: 'defaults' });
  const scope = scopeOf(loaded);
  // An agent asked for and disabled in the config is said to be (as `sessions --agent` says it), not searched as one without hits.
  for (const agent of asked?.filter((name) => !scope.agents.includes(name)) ?? []) {
    io.stderr.write(terminalSafe(`agentwatch: ${agent} is disabled in ${loaded.path} (agents.${agent}: false); not searched\n`));
  }
  const agents = asked ? asked.filter((agent) => scope.agents.includes(agent)) : scope.agents;
  // The user's names, as `sessions` shows them: a renamed session's title is its name.
  const names = await loadSessionNames(io.env);
  if (names.problem) io.stderr.write(terminalSafe(`agentwatch: ${names.problem}\n`));
  const log = stderrLogger(io, { info: false });
  const { db } = await openCaughtUpIndex(io, loaded, { reindex: flags.reindex, log, startSources: startSourcePipeline }).catch((error: unknown) => {
    const fault = storageFault(error);
    if (fault === undefined) throw error;
    const then = fault === 'busy' ? 'try again when it has finished' : 'free some space or fix the folder, then search again';
    throw new RuntimeError(`cannot open the search index ${searchDbPath(io.env)}: ${describeFault(fault)}; ${then}`);
  });
  try {
    const results = searchIndex(db, query, { agents, limit: flags.limit ?? DEFAULT_LIMIT, excludeCwd: scope.excludeCwd, customNames: names.names });
    const nothingIndexed = results.length === 0 && holdsNoSession(db, agents);
    if (flags.json) io.stdout.write(`${JSON.stringify(toJsonResults(results), null, 2)}\n`);
    else if (results.length > 0) {
      const color = shouldColor(io.env, io.stdout.isTTY);
      io.stdout.write(terminalSafe(`${renderResults(results, color)}\n`, { colored: color }));
    } else if (!nothingIndexed) io.stdout.write(terminalSafe(`No session mentions ${JSON.stringify(query)}.\n`));
    // Nothing to search at all is not "no hit": say where the sessions were looked for,
    // as `sessions` does; on stderr under --json, whose stdout stays the array.
    if (nothingIndexed) (flags.json ? io.stderr : io.stdout).write(terminalSafe(`${(await nothingIndexedLines(io, loaded, agents, asked !== undefined, query)).join('\n')}\n`));
    return 0;
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new UsageError(error.message, 'Quote phrases ("..."), end a prefix with *, combine with AND / OR / NOT');
    throw error instanceof Error ? new RuntimeError(error.message) : error;
  } finally {
    db.close();
  }
};
