import { AGENT_LABEL } from '../../sources/agents.js';
import { timeOf } from '../../core/time.js';
import type { SessionDetail } from '../../core/session.js';
import { activityText } from '../../core/activity.js';
import { ESTIMATE_NOTE, formatAge, formatClock, formatCost, formatTokens } from './format.js';
import { fitLine, seg, type Line, type Segment } from './line.js';
import { displayNameOf } from './model.js';
import { ellipsize, wrapText } from './text.js';
import { toolRuns } from './tool-runs.js';

const LABEL_WIDTH = 12;

/** `14:03:09 (2m ago)`, or "" when unknown. */
const when = (rfc3339: string, now: number): string => {
  const at = timeOf(rfc3339);
  if (!(at > 0)) return '';
  const age = formatAge(at, now);
  return `${formatClock(at)} (${age === 'now' ? 'just now' : `${age} ago`})`;
};

/**
 * One field under its label, wrapped to the panel and never cut: a path, a token count or a
 * resume command is read whole, continued on the next lines under the value.
 */
const field = (label: string, value: string, width: number, valueStyle: Segment['style'] = 'value'): Line[] => {
  if (value === '') return [[seg(label.padEnd(LABEL_WIDTH), 'label'), seg('—', 'muted')]];
  const room = Math.max(1, width - LABEL_WIDTH);
  return wrapText(value, room).map((part, i): Line => [seg(i === 0 ? label.padEnd(LABEL_WIDTH) : ' '.repeat(LABEL_WIDTH), 'label'), seg(part, valueStyle)]);
};

const heading = (text: string): Line => [seg(text, 'panelTitle')];

/** `in 1.2M  out 34k  (cache: 900k read, 12k written)`: "in" counts cache reads and writes (docs/formats/README.md). */
const tokenLine = (d: SessionDetail): string => {
  const input = d.input_tokens + d.cache_creation_tokens + d.cache_read_tokens;
  if (input + d.output_tokens === 0) return '';
  const cache = d.cache_read_tokens + d.cache_creation_tokens > 0 ? `  (cache ${formatTokens(d.cache_read_tokens)} read, ${formatTokens(d.cache_creation_tokens)} written)` : '';
  return `in ${formatTokens(input)}  out ${formatTokens(d.output_tokens)}${cache}`;
};

/** The cost and what it is: an estimate says so, a model without a price says that. */
const costLine = (d: SessionDetail, total: number): string => {
  const shown = formatCost(d.cost_usd, total, d.cost_source);
  if (shown === undefined) return '';
  if (d.cost_source === null) return '- (no price known for this model)';
  return d.cost_source === 'price-table' ? `${shown} (${ESTIMATE_NOTE})` : shown;
};

/** The recent messages, newest first, each wrapped whole under who said it. */
const conversationLines = (d: SessionDetail, width: number): Line[] => {
  const lines: Line[] = [heading('Conversation')];
  const messages = [...d.recent_messages].reverse();
  if (messages.length === 0) lines.push([seg('  none', 'muted')]);
  for (const message of messages) {
    const who = message.role === 'user' ? 'you  ' : 'agent';
    const text = message.text.replace(/\s+/g, ' ').trim();
    wrapText(text, Math.max(1, width - 8)).forEach((part, i) => {
      lines.push([seg(i === 0 ? `  ${who} ` : ' '.repeat(8), message.role === 'user' ? 'key' : 'label'), seg(part, 'text')]);
    });
  }
  return lines;
};

/** The recent tools, newest first, a run of one tool on one line (`exec_command ×14`). */
const toolLines = (d: SessionDetail, width: number): Line[] => {
  const lines: Line[] = [heading('Recent tools')];
  const runs = toolRuns(d.recent_tools);
  if (runs.length === 0) lines.push([seg('  none', 'muted')]);
  for (const run of runs) {
    const count = run.count > 1 ? ` ×${run.count}` : '';
    const room = Math.max(1, width - 11 - count.length);
    lines.push([seg(`  ${formatClock(timeOf(run.timestamp)).padEnd(9)}`, 'muted'), seg(ellipsize(run.name, room), 'value'), ...(count ? [seg(count, 'muted')] : [])]);
  }
  return lines;
};

/**
 * What the session is, then the conversation, then every field of the record (wrapped, never
 * cut), then the recent tools: what was said reads first, not under a column of tool calls.
 * The caller scrolls and cuts to the panel height.
 */
const detailLines = (d: SessionDetail, width: number, now: number): Line[] => {
  const total = d.input_tokens + d.cache_creation_tokens + d.cache_read_tokens + d.output_tokens;
  const activity = d.current_tool ? `${d.activity} (${d.current_tool})` : activityText(d, now);
  const wroteAt = when(d.last_file_write_at, now);
  const name = displayNameOf(d);
  return [
    ...field('Name', name.text, width, name.source === 'prompt' ? 'muted' : 'value'),
    ...(d.custom_name && d.agent_name ? field('Title', d.agent_name, width) : []),
    ...field('Activity', activity, width, `act.${d.activity}`),
    [],
    ...conversationLines(d, width),
    [],
    ...field('Agent', `${AGENT_LABEL[d.agent]}${d.source === 'desktop' ? ' (desktop)' : ''}`, width),
    ...field('Directory', d.cwd, width),
    ...field('Branch', d.git_branch, width),
    ...field('Worktree', d.is_worktree ? `yes, of ${d.main_repo}` : 'no', width),
    ...field('Model', d.model, width),
    ...field('Version', d.version, width),
    ...field('Messages', d.total_messages > 0 ? `${d.total_messages} (${d.user_messages} you, ${d.assistant_messages} agent)` : '', width),
    ...field('Tokens', tokenLine(d), width),
    ...field('Cost', costLine(d, total), width),
    ...field('Last active', when(d.last_activity, now), width),
    ...field('Last write', d.last_file_write ? `${d.last_file_write}${wroteAt ? `  ${wroteAt}` : ''}` : '', width),
    ...field('Resume', d.resume_command, width),
    ...field('Session id', d.session_id, width, 'muted'),
    [],
    ...toolLines(d, width),
  ];
};

/**
 * The detail panel inside its borders: the record scrolled by `scroll` lines, one cell of padding
 * each side; `title` (for the border) says which lines show when not all fit.
 */
export const renderDetail = (
  detail: SessionDetail | undefined,
  size: { width: number; height: number },
  now: number,
  scroll: number,
): { title: string; lines: Line[] } => {
  const inner = Math.max(1, size.width - 2);
  const body = detail ? detailLines(detail, inner, now) : [[seg('No session selected', 'muted')]];
  const visible = Math.max(0, size.height);
  const offset = Math.min(Math.max(0, scroll), Math.max(0, body.length - visible));
  const more = body.length - offset - visible;
  const title = `Detail${offset > 0 || more > 0 ? `  ${offset + 1}-${Math.min(body.length, offset + visible)}/${body.length}` : ''}`;
  const lines: Line[] = [];
  for (let i = 0; i < visible; i += 1) lines.push(fitLine([seg(' '), ...(body[offset + i] ?? [])], size.width));
  return { title, lines };
};

/** How far the detail panel can scroll for this record and panel height. */
export const detailMaxScroll = (detail: SessionDetail | undefined, size: { width: number; height: number }, now: number): number =>
  detail ? Math.max(0, detailLines(detail, Math.max(1, size.width - 2), now).length - Math.max(0, size.height)) : 0;
