import { createApi, HttpError, type Api } from './api.js';
import { deriveToken } from './auth.js';
import { browserNotificationsWanted, pageIsWatched } from './browser-notify.js';
import { timeOf } from '../../../src/core/time.js';
import { displayName } from './format.js';
import { NO_WAITING, trackWaiting, type WaitState } from './waiting.js';
import { createDetailLoader, type DetailLoader } from './details.js';
import { followEvents, type StreamState } from './events.js';
import { latestOnly } from './latest.js';
import { SessionsState } from './sessions.svelte.js';
import type { ActivityFilter, ApiStats, AuthParameters, CardDensity, LimitsJson, PublicConfig } from './wire.js';

/** The passphrase route of the GUI server: PUT `{ "new": "...", "current"?: "..." }`. */
const PASSPHRASE_ROUTE = 'api/passphrase';

interface PassphraseAnswer {
  readonly saved?: string;
  readonly effective?: string;
}

/** What the action routes answer (docs/dashboard.md): the program started, and where. */
interface ActionAnswer {
  readonly ok?: boolean;
  readonly terminal?: string;
  readonly editor?: string;
  readonly command?: string;
  readonly cwd?: string;
}

const actionMessage = (kind: 'resume' | 'editor', answer: ActionAnswer | undefined): string => {
  if (kind === 'resume') return answer?.terminal ? `Resuming in ${answer.terminal}${answer.cwd ? ` (${answer.cwd})` : ''}` : 'Resuming in a new terminal';
  return answer?.editor ? `Opened ${answer.cwd ?? 'the project'} in ${answer.editor}` : 'Opening the editor';
};

/**
 * One signed-in dashboard: the API client, the live listing, the config, the limits read and the
 * view state both layouts (dashboard and panel) share. Components get it from the context.
 */

export type ConfigPatch = Partial<Omit<PublicConfig, 'webhooks'>>;

/**
 * The window asked with + / -: shown and stepped from at once, while its saves follow in order.
 * Once the last save is answered it stays until the stream's next stats (which carry the applied
 * window), so the label does not flick back to the old value in between.
 */
interface WindowAsked {
  readonly minutes: number;
  readonly settled: boolean;
  /** The stats when the last save was answered (undefined: none had arrived yet). */
  readonly statsThen: ApiStats | undefined;
}

export interface Toast {
  readonly id: number;
  readonly text: string;
  readonly tone: 'info' | 'error';
}

export class AppState {
  readonly api: Api;
  readonly sessions = new SessionsState();
  readonly details: DetailLoader;

  config: PublicConfig | undefined = $state.raw(undefined);
  /** Why the config could not be read (the dashboard still runs on the stream). */
  configError = $state('');
  stream: StreamState = $state('connecting');
  streamDetail = $state('');

  // View state.
  density: CardDensity = $state('live');
  filter: ActivityFilter = $state('');
  query = $state('');
  selected: string | undefined = $state(undefined);
  detailOpen = $state(false);
  detailWidth = $state(400);
  shortcutsOpen = $state(false);
  settingsOpen = $state(false);
  limitsOpen = $state(false);

  // Limits: read on open and on refresh only, never polled (each read asks the vendors).
  limits: LimitsJson | undefined = $state.raw(undefined);
  limitsLoading = $state(false);
  limitsError = $state('');

  /** Opt-in browser notifications (this browser only; the server's desktop ones are separate). */
  browserNotify = $state(browserNotificationsWanted());
  #waiting: WaitState = NO_WAITING;

  toasts: readonly Toast[] = $state.raw([]);
  /** A clock for ages and sparklines, moved every few seconds (not per frame). */
  now = $state(Date.now());

  #stop: (() => void)[] = [];
  #toastId = 0;
  #limitsRead = 0;

  #windowAsked: WindowAsked | undefined = $state.raw(undefined);
  readonly #windowSaves = latestOnly((minutes: number) => this.saveConfig({ window_minutes: minutes }), {
    settled: (config) => (this.#windowAsked = { minutes: config.window_minutes, settled: true, statsThen: this.sessions.stats }),
    failed: (error) => {
      // Back to the server's window: the user sees what is applied, and why the change was not.
      this.#windowAsked = undefined;
      this.toast(`Could not change the window: ${(error as Error).message}`, 'error');
    },
  });

  readonly token: string;

  readonly #onToken: (token: string) => void;

  /** `onToken` switches the whole dashboard to another token (after a passphrase change). */
  constructor(token: string, onUnauthorized: (why: string) => void, onToken: (token: string) => void) {
    this.token = token;
    this.#onToken = onToken;
    this.api = createApi(token, () => onUnauthorized('The server refused the token. Enter the passphrase again.'));
    this.details = createDetailLoader(this.api, this.sessions);
  }

  start(): void {
    void this.loadConfig();
    const events = followEvents(this.token, {
      onSessions: (frame) => this.sessions.replaceAll(frame),
      onPatch: (frame) => this.sessions.applyPatch(frame),
      onReady: (frame) => this.sessions.setStats(frame.stats),
      onState: (state, detail) => {
        this.stream = state;
        this.streamDetail = detail;
      },
      // The stream retries on its own; a refused token is confirmed with a plain call (whose 401 signs out).
      onUnauthorized: () => void this.api.get('api/stats').catch(() => undefined),
    });
    const clock = setInterval(() => (this.now = Date.now()), 5_000);
    this.#stop.push(
      () => events.stop(),
      () => clearInterval(clock),
      () => this.details.stop(),
    );
  }

  stop(): void {
    for (const stop of this.#stop.splice(0)) stop();
  }

  async loadConfig(): Promise<void> {
    try {
      const config = await this.api.get<PublicConfig>('api/config');
      this.config = config;
      this.configError = '';
      this.density = config.card_density;
      this.filter = config.default_filter;
      this.detailWidth = config.detail_width;
      this.sessions.setOrder(config.sort_order);
    } catch (error) {
      this.configError = (error as Error).message;
    }
  }

  /**
   * PUT /api/config with the changed fields; resolves to the effective config, or rejects with
   * the server's message (a 400 names the field).
   */
  async saveConfig(patch: ConfigPatch): Promise<PublicConfig> {
    const { data: config, headers } = await this.api.request<PublicConfig>('PUT', 'api/config', patch);
    this.config = config;
    this.sessions.setOrder(config.sort_order);
    // What the running monitor cannot apply (claude_dirs, webhooks, an agent switched on...).
    const restart = headers.get('agentwatch-restart-required');
    if (restart) this.toast(`Saved; applies when agentwatch restarts: ${restart.split(',').join(', ')}`);
    return config;
  }

  /** Save in the background; a failure is said in a toast (the view keeps the user's choice for this tab). */
  persist(patch: ConfigPatch, what: string): void {
    this.saveConfig(patch).catch((error: unknown) => this.toast(`Could not save ${what}: ${(error as Error).message}`, 'error'));
  }

  setDensity(density: CardDensity): void {
    if (density === this.density) return;
    this.density = density;
    this.persist({ card_density: density }, 'the card density');
  }

  /** The window the server applies: its stats (live), else the config read. */
  get serverWindow(): number {
    return this.sessions.stats?.window_minutes ?? this.config?.window_minutes ?? 30;
  }

  /** How + / - step the window: the server's bounds (GET /api/config), none before they are read. */
  get windowStepper(): { readonly min: number; readonly max: number; readonly step: number } | undefined {
    return this.config?.bounds.window_minutes.stepper;
  }

  /** The detail panel's width range: the server's bounds of `detail_width`, none before they are read. */
  get detailWidthRange(): { readonly min: number; readonly max: number } | undefined {
    return this.config?.bounds.detail_width;
  }

  /** The window shown in the header and stepped by + / -: the last one asked, else the server's. */
  get windowMinutes(): number {
    const asked = this.#windowAsked;
    if (asked && !(asked.settled && this.sessions.stats !== asked.statsThen)) return asked.minutes;
    return this.serverWindow;
  }

  /**
   * A new window, shown at once; saved through PUT /api/config in order, quick changes coalesced
   * (the last value asked is the one saved). A refused save says why and shows the server's window.
   */
  setWindow(minutes: number): void {
    if (minutes === this.windowMinutes) return;
    this.#windowAsked = { minutes, settled: false, statsThen: undefined };
    this.#windowSaves.ask(minutes);
  }

  async readLimits(): Promise<void> {
    const read = ++this.#limitsRead;
    this.limitsLoading = true;
    this.limitsError = '';
    try {
      const limits = await this.api.get<LimitsJson>('api/limits');
      if (read === this.#limitsRead) this.limits = limits;
    } catch (error) {
      if (read === this.#limitsRead) this.limitsError = error instanceof HttpError && error.status === 404 ? 'This server does not offer GET /api/limits.' : (error as Error).message;
    } finally {
      if (read === this.#limitsRead) this.limitsLoading = false;
    }
  }

  openLimits(): void {
    if (!this.limitsOpen) {
      this.limitsOpen = true;
      void this.readLimits();
    }
  }

  closeLimits(): void {
    this.limitsOpen = false;
  }

  openDetail(id: string): void {
    this.selected = id;
    this.detailOpen = true;
    this.details.request(id, true);
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    const path = `api/sessions/${encodeURIComponent(id)}/name`;
    const answer = trimmed === '' ? await this.api.send<{ custom_name: string }>('DELETE', path) : await this.api.send<{ custom_name: string }>('PUT', path, { name: trimmed });
    this.sessions.rename(id, answer.custom_name);
  }

  /** Resume / Editor: the server runs the session's own command; its answer or refusal is shown. */
  async action(id: string, kind: 'resume' | 'editor'): Promise<void> {
    try {
      const answer = await this.api.send<ActionAnswer | undefined>('POST', `api/sessions/${encodeURIComponent(id)}/actions/${kind}`);
      this.toast(actionMessage(kind, answer), 'info');
    } catch (error) {
      this.toast(`${kind === 'resume' ? 'Resume' : 'Editor'} failed: ${(error as Error).message}`, 'error');
    }
  }

  /**
   * Replace the API passphrase (the server's passphrase route; the current one is never read).
   * When the server takes the new one at once, this tab signs in with it; otherwise the answer
   * says when it applies.
   */
  async rotatePassphrase(next: string, current: string): Promise<string> {
    const answer = await this.api.send<PassphraseAnswer | undefined>('PUT', PASSPHRASE_ROUTE, { new: next, ...(current !== '' ? { current } : {}) });
    // A server that switches at once accepts the new token now: this tab follows it.
    const token = await deriveToken(next, await this.api.get<AuthParameters>('api/auth'));
    const check = await fetch('api/stats', { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
    if (check.ok && token !== this.token) {
      queueMicrotask(() => this.#onToken(token));
      return 'Passphrase changed; this tab now uses the new token.';
    }
    return `Passphrase saved${answer?.saved ? ` in ${answer.saved}` : ''}; it applies ${answer?.effective ?? 'at the next start of agentwatch'}.`;
  }

  /**
   * Announce, in this browser, sessions that wait for the user longer than `notify_after_sec`
   * (once per episode), when notifications are on here and nobody is looking at the page.
   */
  checkWaiting(): void {
    // The delay is the config's: nothing is judged before it is known.
    if (!this.config) return;
    const afterMs = this.config.notify_after_sec * 1000;
    const { state, due } = trackWaiting(
      this.#waiting,
      this.sessions.list.map((entry) => ({ id: entry.id, waiting: entry.summary.activity === 'waiting', lastActivity: timeOf(entry.summary.last_activity) || Number.NaN })),
      Date.now(),
      afterMs,
    );
    this.#waiting = state;
    if (!this.browserNotify || due.length === 0 || pageIsWatched()) return;
    for (const id of due) {
      const entry = this.sessions.get(id);
      if (!entry) continue;
      // Named by its project, as the desktop notification is (docs/notifications.md).
      const notification = new Notification(`${entry.summary.short_name || displayName(entry.summary)} is waiting for you`, { body: entry.summary.cwd, tag: `agentwatch-${id}` });
      notification.onclick = () => {
        window.focus();
        this.openDetail(id);
        notification.close();
      };
    }
  }

  toast(text: string, tone: Toast['tone'] = 'info'): void {
    const toast = { id: ++this.#toastId, text, tone };
    this.toasts = [...this.toasts, toast].slice(-4);
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== toast.id)), tone === 'error' ? 8_000 : 3_500);
  }
}
