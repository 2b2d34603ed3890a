import type { z } from 'zod';

/**
 * One line naming where a value failed validation and what was expected, e.g.
 * `five_hour.utilization: Invalid input: expected number, received string`. zod's messages name
 * types, never the offending values, so no secret can leak through them.
 */
export const describeIssues = (error: z.ZodError, max = 2): string =>
  error.issues
    .slice(0, max)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(top level)'}: ${issue.message}`)
    .join('; ');
