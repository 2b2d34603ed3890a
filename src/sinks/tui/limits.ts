import { stripVTControlCharacters } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { LIMIT_AGENTS } from '../../core/agents.js';
import type { LimitsCtx } from '../../limits/context.js';
import { fetchLimits } from '../../limits/fetch-limits.js';
import { renderDetailed } from '../../limits/render-detailed.js';
import { renderTable } from '../../limits/render-table.js';
import { errorLines, guidanceMessage, noneAvailable, noticeLines } from '../../limits/rows.js';
import type { Outcomes } from '../../limits/types.js';
import type { LimitsText } from './state.js';
import { agentLimits } from '../../sources/agents.js';

const linesOf = (text: string): string[] => stripVTControlCharacters(text).replace(/\n+$/, '').split('\n').filter((line, i, all) => line !== '' || i < all.length - 1);

const dropLeadingBlanks = (lines: string[]): string[] => {
  const first = lines.findIndex((line) => line.trim() !== '');
  return first === -1 ? [] : lines.slice(first);
};

/**
 * The modal's text: the very table and detailed report `agentwatch limits` prints (same
 * renderers, colors off, the theme colors the modal), with the per-agent errors and, when no
 * agent has a credential, the same guidance message.
 */
export const limitsText = (outcomes: Outcomes, now: number, width: number): LimitsText => {
  const options = { color: false, now, width };
  const errors = [...errorLines(outcomes), ...noticeLines(outcomes)];
  const tail = [...(errors.length > 0 ? ['', ...errors] : []), ...(noneAvailable(outcomes) ? ['', guidanceMessage(outcomes)] : [])];
  return {
    summary: dropLeadingBlanks([...linesOf(renderTable(outcomes, options)), ...tail]),
    detailed: dropLeadingBlanks([...linesOf(renderDetailed(outcomes, options)), ...tail]),
  };
};

/** The modal's text of one read at any width: a resize renders again, never reads again or wraps twice. */
export type LimitsRenderer = (width: number) => LimitsText;

/** One read of every provider (on open and on `r`; never on a timer), rendered on demand. */
export const readLimits = async (ctx: LimitsCtx): Promise<LimitsRenderer> => {
  const outcomes = await firstValueFrom(fetchLimits(ctx, LIMIT_AGENTS, agentLimits));
  const at = ctx.now();
  return (width) => limitsText(outcomes, at, width);
};
