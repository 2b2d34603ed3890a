/** A run of consecutive calls of one tool: its name, how many, and the time of the newest. */
export interface ToolRun {
  readonly name: string;
  readonly count: number;
  readonly timestamp: string;
}

/**
 * Consecutive calls of the same tool folded into one run, newest first: an agent that ran
 * `exec_command` fourteen times in a row reads as one line, so the rest stays in view.
 */
export const toolRuns = (tools: readonly { readonly name: string; readonly timestamp: string }[]): ToolRun[] => {
  const runs: ToolRun[] = [];
  for (let i = tools.length - 1; i >= 0; i -= 1) {
    const tool = tools[i];
    if (!tool) continue;
    const last = runs[runs.length - 1];
    if (last && last.name === tool.name) runs[runs.length - 1] = { ...last, count: last.count + 1 };
    else runs.push({ name: tool.name, count: 1, timestamp: tool.timestamp });
  }
  return runs;
};
