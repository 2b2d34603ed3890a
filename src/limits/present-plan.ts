/**
 * A report's heading, the same in `limits --detailed`, the TUI's limits window and the dashboard:
 * the row, then the plan in parentheses. A plan that carries its own parenthesis (the sample
 * plans, `Max (sample)`) is joined into it, `Claude (Max, sample)`, never nested. Pure, no Node
 * imports: the dashboard bundles it.
 */
export const planLabel = (plan: string): string => plan.trim().replace(/\s*\(([^()]*)\)$/, ', $1');

export const reportTitle = (row: string, plan?: string): string => (plan ? `${row} (${planLabel(plan)})` : row);
