import { interval, merge, Subject, throttleTime, type Observable, type SchedulerLike } from 'rxjs';
import { isActiveActivity } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import type { SessionsState } from '../../core/contracts.js';
import type { Config } from '../../config/effective.js';
import type { Env } from '../../config/paths.js';
import { setSessionName, type SessionNames } from '../../config/session-names.js';
import { createListing, type ListingFrame } from '../../streams/listing.js';
import type { WorktreeLookup } from '../../streams/worktree.js';
import { copyToClipboard } from './clipboard.js';
import { installCrashGuard } from './crash-guard.js';
import { diffFrames } from './diff.js';
import { editorCommand, runEditor } from './editor.js';
import { encodeLine } from './encode.js';
import { SPINNER_STEP_MS } from './format.js';
import { buildFrame, type Frame, type FrameContext } from './frame.js';
import type { ListedRead } from './model.js';
import { keyToAction, type KeyMode } from './keys.js';
import { hitTest, modalMaxContentWidth } from './layout.js';
import { mouseToAction } from './mouse.js';
import { watchNames } from './names.js';
import { listHasStatus, openModalRect, render, scrollBounds } from './render.js';
import { initialView, reduceView, settleView, type Action, type ContentHit, type Effect, type ViewState } from './state.js';
import type { Screen } from './terminal.js';
import type { Theme } from './theme.js';
import type { LimitsRenderer } from './limits.js';
import { activityRules } from '../../streams/activity.js';
import { degradedStorage, summarizeDegraded } from '../../util/storage-health.js';

/** Frames are drawn at most this often (about 7 per second); a key press draws at once. */
const FRAME_MS = 150;

export interface TuiOptions {
  /** The pipeline's frames (state, the activities the fold derived, what each touched). */
  readonly frame$: Observable<ListingFrame>;
  readonly config: Config;
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  readonly now: () => number;
  readonly scheduler: SchedulerLike;
  readonly theme: Theme;
  readonly screen: Screen;
  /** Agents listed (config toggles and `--agent`). */
  readonly agents: readonly AgentKind[];
  /** Where the sources look, shown when nothing is listed. */
  readonly searched: readonly string[];
  /** Worktree facts of a session's cwd, for the detail pane. */
  readonly worktree: WorktreeLookup;
  readonly names: SessionNames;
  /** Problem reading session-names.json at startup, shown once. */
  readonly namesProblem?: string;
  /** One read of every limits provider; the answer renders the modal's text for a width. */
  readonly readLimits: () => Promise<LimitsRenderer>;
  /** Full-text search over what was said (the search index; in --demo, the generated sessions'), best session first. */
  readonly searchContent?: (query: string) => Promise<readonly ContentHit[]>;
  /** True while the search index still catches up (its hits are part of the history). */
  readonly searchCatchingUp?: () => boolean;
  /** Writes a crash message once the terminal is restored (stderr, past any capture). */
  readonly report: (message: string) => void;
  readonly exit: (code: number) => void;
  /** 'restore-only' when the caller stops the TUI itself on SIGINT/SIGTERM/SIGHUP (the monitor does). */
  readonly signals?: 'restore-and-exit' | 'restore-only';
}

const EMPTY_STATE: SessionsState = { sessions: new Map(), diagnostics: {}, ready: false };

const modeOf = (view: ViewState): KeyMode => (view.prompt ? 'prompt' : view.help ? 'help' : view.limits ? 'limits' : 'normal');

/** Warnings kept for the status line and the `?` overlay (the oldest go first). */
const MAX_WARNINGS = 50;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface RunningTui {
  /** Resolves when the user quits; rejects when drawing fails (the screen is restored first). */
  readonly done: Promise<void>;
  /** End the TUI from outside (the monitor stopping on a signal): restores the screen. */
  readonly stop: () => void;
  /** Show a line in the help bar for a few seconds (information that would otherwise paint over the frame). */
  readonly notify: (text: string, tone: 'info' | 'error') => void;
  /** Keep a warning: counted on the status line that opens the list, listed in the `?` overlay. */
  readonly warn: (text: string) => void;
}

/**
 * Run the TUI until the user quits. The screen is restored on every way out: quit, an error
 * thrown here, `stop()`, a crash anywhere (uncaughtException/unhandledRejection) or a signal.
 */
export const runTui = (options: TuiOptions): RunningTui => {
  let stop = (): void => undefined;
  let notifyOutside = (_text: string, _tone: 'info' | 'error'): void => undefined;
  let warnOutside = (_text: string): void => undefined;
  const done = new Promise<void>((resolve, reject) => {
    const { screen, config, env, now } = options;
    let state = EMPTY_STATE;
    let view = initialView(config.window_minutes, config.default_filter, config.sort_order);
    let previous: string[] | undefined;
    let suspended = false;
    const warnings: string[] = [];
    // The last limits read, rendered again for the new width after a resize.
    let limitsRender: { readonly request: number; readonly render: LimitsRenderer } | undefined;
    const agents = new Set(options.agents);
    const frameCtx = (): FrameContext => ({
      names,
      excludeCwdSubstrings: config.exclude_cwd_substrings,
      agents,
      searched: options.searched,
      worktreeOf,
      warnings,
      degraded: degradedStorage().map(summarizeDegraded),
      rules,
    });
    let names = options.names;
    const rules = activityRules(config.waiting_timeout_minutes);
    // The list is the one read model (streams/listing.ts) with the view's window, which + and -
    // move: only what a frame touched is looked at again, and the edge moves with the clock.
    const listing = createListing({
      visibility: () => ({ windowMinutes: view.windowMinutes, excludeCwdSubstrings: config.exclude_cwd_substrings, agents, waitingTimeoutMinutes: config.waiting_timeout_minutes }),
    });
    let listedWindow = view.windowMinutes;
    const readListing = (time: number): ListedRead => {
      if (view.windowMinutes !== listedWindow) {
        listedWindow = view.windowMinutes;
        listing.invalidate();
      }
      listing.setNames(names);
      listing.refresh(time);
      return { state, sessions: listing.sessions(), counts: listing.counts() };
    };
    const worktreeOf = options.worktree;
    const dirty$ = new Subject<void>();

    // Whether the last frame showed something that moves (spinners): only then do 250 ms ticks draw.
    let animating = true;
    let lastDrawAt = -Infinity;
    const draw = (): void => {
      if (suspended) return;
      const size = screen.size();
      const time = now();
      const built = buildFrame(readListing(time), view, frameCtx(), time);
      // Settling keeps the same session selected and in view, so the frame only needs the settled view.
      view = settleView(view, built.rows, scrollBounds(built, size).listVisible, built.ready);
      const frame = { ...built, view };
      animating = !frame.ready || frame.rows.some((row) => isActiveActivity(row.activity)) || view.limits?.phase === 'loading';
      lastDrawAt = time;
      const lines = render(frame, size).map((line) => encodeLine(line, options.theme));
      screen.draw(diffFrames(previous, lines));
      previous = lines;
    };

    /** An action decided on the current frame (a click names a row of what is on screen). */
    const dispatchOn = (decide: (frame: Frame) => Action | undefined): void => {
      const time = now();
      const frame = buildFrame(readListing(time), view, frameCtx(), time);
      const action = decide(frame);
      if (!action) return;
      const reduced = reduceView(view, action, { rows: frame.rows, now: time, ...scrollBounds(frame, screen.size()) });
      view = reduced.view;
      for (const effect of reduced.effects) perform(effect);
      dirty$.next();
    };
    const dispatch = (action: Action): void => dispatchOn(() => action);

    const notify = (text: string, tone: 'info' | 'error' = 'info'): void => dispatch({ type: 'notice', text, tone });

    const perform = (effect: Effect): void => {
      switch (effect.type) {
        case 'quit':
          finish();
          return;
        case 'copy':
          void copyToClipboard(effect.text, env, options.platform, screen.writeRaw).then(
            (result) => notify(`Copied: ${effect.text}${result.tool ? ` (OSC 52 + ${result.tool})` : ' (OSC 52)'}`),
            (error: unknown) => notify(`Copy failed: ${messageOf(error)}`, 'error'),
          );
          return;
        case 'rename':
          void setSessionName(env, effect.sessionId, effect.name).then(
            (result) => {
              names = result.names;
              notify(result.problem ?? (effect.name ? `Renamed to "${effect.name}"` : 'Custom name cleared'), result.problem ? 'error' : 'info');
            },
            (error: unknown) => notify(`Rename failed: ${messageOf(error)}`, 'error'),
          );
          return;
        case 'openEditor': {
          const command = editorCommand(config.editor, env, effect.cwd);
          if (!command) {
            notify('No editor set: add "editor" to config.json, or set $VISUAL or $EDITOR', 'error');
            return;
          }
          suspended = true;
          screen.suspend();
          void runEditor(command.argv, effect.cwd, env)
            .then(
              (code) => (code === 0 ? undefined : `${command.argv[0] ?? 'editor'} exited with code ${code}`),
              (error: unknown) => messageOf(error),
            )
            .then((problem) => {
              suspended = false;
              screen.resume();
              previous = undefined;
              notify(problem ?? `Opened ${effect.cwd} with ${command.from}`, problem ? 'error' : 'info');
            });
          return;
        }
        case 'loadLimits': {
          void options.readLimits().then(
            (render) => {
              limitsRender = { request: effect.request, render };
              dispatch({ type: 'limitsLoaded', request: effect.request, text: render(modalMaxContentWidth(screen.size())) });
            },
            (error: unknown) => dispatch({ type: 'limitsFailed', request: effect.request, message: messageOf(error) }),
          );
          return;
        }
        case 'searchContent': {
          if (!options.searchContent) {
            notify('Searching messages needs the search index: run agentwatch search', 'error');
            return;
          }
          notify(`Searching messages for ${JSON.stringify(effect.query)}…`);
          void options.searchContent(effect.query).then(
            (hits) => dispatch({ type: 'contentResults', query: effect.query, hits, partial: options.searchCatchingUp?.() === true }),
            (error: unknown) => notify(messageOf(error), 'error'),
          );
          return;
        }
        default:
          effect satisfies never;
      }
    };

    let finished = false;
    const cleanups: (() => void)[] = [];
    const finish = (error?: unknown): void => {
      if (finished) return;
      finished = true;
      for (const cleanup of cleanups.reverse()) cleanup();
      screen.restore();
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };

    try {
      cleanups.push(installCrashGuard({ restore: screen.restore, report: options.report, exit: options.exit, signals: options.signals ?? 'restore-and-exit' }));
      screen.start();
      const frames = dirty$.pipe(throttleTime(FRAME_MS, options.scheduler, { leading: true, trailing: true })).subscribe(() => {
        try {
          draw();
        } catch (error) {
          finish(error);
        }
      });
      cleanups.push(() => frames.unsubscribe());
      const feeds = merge(options.frame$, interval(SPINNER_STEP_MS, options.scheduler)).subscribe({
        next: (value) => {
          if (typeof value !== 'number') {
            state = value.state;
            listing.push(value);
          }
          // A tick redraws when spinners turn, else once a second (ages, notices expiring).
          if (typeof value !== 'number' || animating || now() - lastDrawAt >= 1000) dirty$.next();
        },
        error: (error: unknown) => finish(error),
      });
      cleanups.push(() => feeds.unsubscribe());
      cleanups.push(
        screen.onKey((key) => {
          const action = keyToAction(key, modeOf(view));
          if (action) dispatch(action);
        }),
      );
      cleanups.push(
        screen.onMouse((press) => {
          dispatchOn((frame) => {
            const size = screen.size();
            const hit = hitTest(size, listHasStatus(frame), press.x, press.y, openModalRect(frame, size));
            return mouseToAction(press, modeOf(view), hit, view.listOffset);
          });
        }),
      );
      cleanups.push(
        screen.onResize((size) => {
          previous = undefined;
          screen.clear();
          const shown = view.limits;
          if (shown?.phase === 'ready' && limitsRender?.request === shown.request) {
            dispatch({ type: 'limitsLoaded', request: shown.request, text: limitsRender.render(modalMaxContentWidth(size)) });
          }
          dirty$.next();
        }),
      );
      cleanups.push(
        watchNames(env, (load) => {
          names = load.names;
          dirty$.next();
        }),
      );
      if (options.namesProblem) notify(options.namesProblem, 'error');
      dirty$.next();
    } catch (error) {
      finish(error);
    }
    stop = () => finish();
    notifyOutside = (text, tone) => {
      if (!finished) notify(text, tone);
    };
    warnOutside = (text) => {
      if (finished) return;
      warnings.push(text);
      if (warnings.length > MAX_WARNINGS) warnings.splice(0, warnings.length - MAX_WARNINGS);
      dirty$.next();
    };
  });
  return { done, stop: () => stop(), notify: (text, tone) => notifyOutside(text, tone), warn: (text) => warnOutside(text) };
};
