import { getContext, setContext } from 'svelte';
import type { AppState } from './app.svelte.js';

const KEY = Symbol('agentwatch');

export const provideApp = (app: AppState): AppState => setContext(KEY, app);

export const useApp = (): AppState => {
  const app = getContext<AppState | undefined>(KEY);
  if (!app) throw new Error('useApp() outside the signed-in shell');
  return app;
};
