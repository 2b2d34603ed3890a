import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { configDir } from '../../../src/config/paths.js';
import { loadSessionNames, setSessionName } from '../../../src/config/session-names.js';
import { watchSessionNames } from '../../../src/sinks/http/names-watch.js';
import { createSessionStore } from '../../../src/sinks/http/store.js';
import { BehaviorSubject } from 'rxjs';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';
import { detail, makeTempEnv, sceneFeed, viewsOf } from './helpers.js';

/** Bounded poll for a real file-watch event (no fixed sleep). */
const eventually = async (check: () => boolean, timeoutMs = 5_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('watchSessionNames', () => {
  it('brings a rename written by another interface or process into the store', async () => {
    const temp = await makeTempEnv();
    try {
      await mkdir(configDir(temp.env), { recursive: true });
      const store = createSessionStore({
        feed: sceneFeed(new BehaviorSubject(viewsOf([detail({ session_id: 's1' })]))),
        worktree: () => NOT_A_WORKTREE,
        names: (await loadSessionNames(temp.env)).names,
        saveName: async (id, name) => (await setSessionName(temp.env, id, name)).names,
        namesChanged$: watchSessionNames(temp.env),
      });
      const seen: string[] = [];
      const subscription = store.snapshot$.subscribe((snapshot) => seen.push(snapshot.summaries[0]?.custom_name ?? '?'));
      try {
        // As the TUI (or a second agentwatch) does: straight to the file, not through this store.
        await setSessionName(temp.env, 's1', 'Named elsewhere');
        await eventually(() => store.current().summaries[0]?.custom_name === 'Named elsewhere');
        expect(seen).toContain('Named elsewhere');
        await setSessionName(temp.env, 's1', undefined);
        await eventually(() => store.current().summaries[0]?.custom_name === '');
      } finally {
        subscription.unsubscribe();
        store.close();
      }
    } finally {
      await temp.cleanup();
    }
  });

  it('completes quietly when there is no config directory to watch', async () => {
    const temp = await makeTempEnv();
    let completed = false;
    watchSessionNames(temp.env).subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true);
    await temp.cleanup();
  });
});
