/**
 * Timing constants of the activity state machine (docs/activity.md, "Timing rules"). Milliseconds.
 * Every duration is measured from a record's own timestamp, never from when agentwatch read it,
 * so a one-shot snapshot and a long-running monitor agree.
 */

/** A tool call (or a just-finished tool) paints the session with its activity this long. */
export const ACTIVITY_TIMEOUT_MS = 30_000;

/** A compaction that logged no end shows "compacting" this long after its start. */
export const COMPACTION_TIMEOUT_MS = 30_000;

/** "thinking" after a prompt or a tool result lasts this long without a newer record, then "idle". */
export const THINKING_TIMEOUT_MS = 30_000;

/**
 * After an answer, "waiting" lasts until this long after the answer, then "idle": the default of
 * `waiting_timeout_minutes` (the display rule only; notifications follow the wait itself).
 */
export const WAITING_TIMEOUT_MS = 120_000;

/** A pending sub-agent call keeps the session "spawning" this long. */
export const SPAWNING_TIMEOUT_MS = 20 * 60_000;

/**
 * Within this long after an answer the session reads "thinking", not "waiting": the agent may
 * still append a tool call (claude writes a text-only line and a tool_use line ~2 s apart).
 */
export const WAITING_GRACE_MS = 10_000;

/** Caps of the folded session: what the detail views show, and a bounded size per session. */
export const RECENT_TOOLS_MAX = 20;
export const RECENT_MESSAGES_MAX = 10;
export const MESSAGE_TEXT_MAX = 300;
/**
 * Per-message usage remembered for dedupe; older ids are forgotten first. The lines of one
 * response are written together (at most tool results between them), so a few ids suffice.
 */
export const USAGE_IDS_MAX = 8;
/** Pending tool calls remembered; a runaway list of never-answered calls is cut from the oldest. */
export const PENDING_TOOLS_MAX = 32;
