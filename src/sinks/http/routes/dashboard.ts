import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config/effective.js';
import type { SessionStore } from '../store.js';
import { registerActionRoutes, type ActionsDeps } from './actions.js';
import { registerSettingsRoutes, type SettingsDeps } from './config.js';
import { registerLimitsRoute, type LimitsDeps } from './limits.js';
import { registerScopeRoute, type ScopeDeps } from './scope.js';
import { registerStaticRoutes } from './static.js';

/**
 * The routes the web dashboard adds to the API server (docs/dashboard.md): its static files at
 * `/`, `GET /api/limits`, `PUT /api/config`, `PUT /api/passphrase`, `GET /api/scope` and the session actions.
 */
export interface DashboardDeps {
  /** The built dashboard (default: `dist/gui` of the installed package). */
  readonly guiDir?: string;
  readonly limits: Omit<LimitsDeps, 'config'>;
  readonly settings: SettingsDeps;
  readonly actions: Omit<ActionsDeps, 'store' | 'config' | 'loopback'>;
  /** `GET /api/scope`: what an empty dashboard says (outside the window, where it looked). */
  readonly scope?: ScopeDeps['scope'];
}

export const registerDashboard = (
  app: FastifyInstance,
  deps: DashboardDeps,
  shared: { readonly store: SessionStore; readonly config: () => Config; readonly loopback: boolean },
): void => {
  registerStaticRoutes(app, deps.guiDir ? { guiDir: deps.guiDir } : {});
  registerLimitsRoute(app, { ...deps.limits, config: shared.config });
  registerSettingsRoutes(app, deps.settings);
  registerActionRoutes(app, { ...deps.actions, store: shared.store, config: shared.config, loopback: shared.loopback });
  if (deps.scope) registerScopeRoute(app, { scope: deps.scope });
};
