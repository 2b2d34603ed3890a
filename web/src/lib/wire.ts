/**
 * The API's wire types, imported from the server's own modules so the dashboard and the server
 * cannot drift (type-only imports: nothing of the server ends up in the bundle).
 */
export type { SessionSummary, SessionDetail } from '../../../src/core/session.js';
export type { ApiStats, SessionsFrame, PatchFrame, ReadyFrame, AuthParameters, ScopeDocument, DeliveryRecord } from '../../../src/core/wire.js';
export type {  ActivityFilter } from '../../../src/core/activity.js';
export type { AgentKind,  } from '../../../src/core/agents.js';
export type { LimitsJson } from '../../../src/limits/render-json.js';
;
export type { PublicConfig, PublicWebhook, CardDensity,  } from '../../../src/config/effective.js';
export type { SearchResult } from '../../../src/search/query.js';
