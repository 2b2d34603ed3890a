/**
 * The API's wire types, imported from the server's own modules so the dashboard and the server
 * cannot drift (type-only imports: nothing of the server ends up in the bundle).
 */
export type { SessionSummary, SessionDetail } from '../../../src/core/session.ts';
export type { ApiStats, SessionsFrame, PatchFrame, ReadyFrame, AuthParameters } from '../../../src/core/wire.ts';
export type { Activity, ActivityFilter } from '../../../src/core/activity.ts';
export type { AgentKind, LimitAgent } from '../../../src/core/agents.ts';
export type { LimitsJson } from '../../../src/limits/render-json.ts';
export type { PaceLabel } from '../../../src/limits/pace.ts';
export type { PublicConfig, PublicWebhook, CardDensity, TerminalChoice } from '../../../src/config/effective.ts';
export type { SearchResult } from '../../../src/search/query.ts';
