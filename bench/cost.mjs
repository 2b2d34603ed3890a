/**
 * `node bench/cost.mjs [--json]`: per-session cost on the repository's fixture corpus, agentwatch
 * (`sessions --all --json`, built dist/) against ccusage (`<agent> session --json --offline`, the
 * pinned devDependency), for the agents both read. "before" is the estimate of the substring price
 * list agentwatch used before the LiteLLM table (every unknown model at Sonnet rates), on the same
 * token counts. Prints a markdown table; writes bench/results/cost.json.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'fixtures');
const home = mkdtempSync(path.join(os.tmpdir(), 'agentwatch-cost-'));

// The fixture corpus laid out as one home: each agent's tree, and the loose transcripts in a project of their own.
const copyTree = (from, to) => cpSync(path.join(fixtures, from), path.join(home, to), { recursive: true });
copyTree('claude/.claude', '.claude');
for (const dir of ['forked', 'subagent-copies', 'background']) {
  for (const project of readdirSync(path.join(fixtures, 'claude', dir)).filter((name) => name.startsWith('-'))) copyTree(`claude/${dir}/${project}`, `.claude/projects/${project}`);
}
copyTree('claude/counts', '.claude/projects/-home-dev-counts');
copyTree('codex/.codex', '.codex');
copyTree('codex/segments', '.codex/sessions/2026/11/20');
copyTree('pi/.pi', '.pi');

const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache'), XDG_DATA_HOME: path.join(home, '.local/share'), PATH: process.env.PATH, TZ: 'UTC', NO_COLOR: '1' };
const run = (command, args) => JSON.parse(execFileSync(command, args, { env, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));

const ours = run(process.execPath, [path.join(root, 'dist', 'cli.js'), 'sessions', '--all', '--json']);
const ccusage = path.join(root, 'node_modules', '.bin', 'ccusage');
const theirs = new Map();
for (const agent of ['claude', 'codex', 'pi']) {
  let report;
  try {
    report = run(ccusage, [agent, 'session', '--json', '--offline']);
  } catch {
    continue;
  }
  for (const s of report.sessions ?? []) {
    const id = String(s.sessionId ?? s.session_id ?? '');
    theirs.set(`${agent}:${id}`, s.totalCost ?? s.costUSD ?? s.cost);
    // ccusage names a Codex session by its file (`YYYY/MM/DD/rollout-<time>-<id>`): the id is its last 36 characters.
    theirs.set(`${agent}:${id.slice(-36)}`, s.totalCost ?? s.costUSD ?? s.cost);
  }
}

// The substring price list of before (USD per million input/output; writes 1.25x, reads 0.1x of input).
const OLD = [['opus', 15, 75], ['haiku', 1, 5], ['gemini', 2, 10], ['gpt-4o', 2.5, 10], ['gpt-4', 10, 30], ['gpt-5', 2.5, 10]];
const before = (d) => {
  const [, input, output] = OLD.find(([name]) => d.model.toLowerCase().includes(name)) ?? ['', 3, 15];
  return (d.input_tokens * input + d.cache_creation_tokens * input * 1.25 + d.cache_read_tokens * input * 0.1 + d.output_tokens * output) / 1e6;
};

const usd = (n) => (typeof n === 'number' ? `$${n.toFixed(4)}` : '-');
const rows = ours.map((d) => {
  const key = `${d.agent}:${d.session_id}`;
  const other = theirs.get(key);
  const estimated = d.cost_source === 'price-table' ? before(d) : undefined;
  return { agent: d.agent, session: d.session_id.slice(0, 8), model: d.model, source: d.cost_source, before: d.cost_source === 'agent' ? d.cost_usd : estimated ?? before(d), after: d.cost_source === null ? null : d.cost_usd, ccusage: other ?? null };
});
rmSync(home, { recursive: true, force: true });

const lines = ['| agent | session | model | cost_source | before | after | ccusage | after vs ccusage |', '|---|---|---|---|---|---|---|---|'];
for (const r of rows) {
  const diff = typeof r.ccusage === 'number' && typeof r.after === 'number' ? (r.ccusage === 0 ? (r.after === 0 ? '0 %' : 'n/a') : `${(((r.after - r.ccusage) / r.ccusage) * 100).toFixed(1)} %`) : '';
  lines.push(`| ${r.agent} | ${r.session} | ${r.model || '(none)'} | ${r.source ?? 'null'} | ${usd(r.before)} | ${usd(r.after ?? undefined)} | ${usd(r.ccusage ?? undefined)} | ${diff} |`);
}
console.log(lines.join('\n'));
mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'cost.json'), `${JSON.stringify({ rows }, null, 2)}\n`);
