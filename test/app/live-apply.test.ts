import { describe, expect, it } from 'vitest';
import { followConfig, liveCtx } from '../../src/app/live-apply.js';
import type { Config } from '../../src/config/effective.js';
import { createLiveConfig } from '../../src/config/live.js';
import type { VisibilityOptions } from '../../src/streams/visibility.js';
import { rx, testConfig, testCtx } from '../helpers/marbles.js';

const setup = () => {
  const live = createLiveConfig(testConfig());
  const visibilities: VisibilityOptions[] = [];
  const notifiers: { config: Config; stopped: boolean }[] = [];
  const stop = followConfig(live, { setVisibility: (v) => visibilities.push(v) }, {
    picked: ['claude', 'codex'],
    startNotifier: (config) => {
      const entry = { config, stopped: false };
      notifiers.push(entry);
      return () => {
        entry.stopped = true;
      };
    },
  });
  return { live, visibilities, notifiers, stop };
};

describe('followConfig', () => {
  it('starts the notifier once and leaves the listing alone until something changes', () => {
    const { visibilities, notifiers } = setup();
    expect(visibilities).toEqual([]);
    expect(notifiers).toHaveLength(1);
  });

  it('window, exclusions and agent switches re-list (only picked agents still on)', () => {
    const { live, visibilities, notifiers } = setup();
    live.set({ ...live.current(), window_minutes: 120, agents: { ...live.current().agents, codex: false, pi: true } });
    expect(visibilities).toEqual([{ windowMinutes: 120, excludeCwdSubstrings: [], agents: new Set(['claude']), waitingTimeoutMinutes: 2 }]);
    live.set({ ...live.current(), card_density: 'compact', detail_width: 700 });
    expect(visibilities).toHaveLength(1);
    expect(notifiers).toHaveLength(1);
  });

  it('notifications, notify_after_sec and exclusions restart the notifier with the new config', () => {
    const { live, notifiers, stop } = setup();
    live.set({ ...live.current(), notifications: true, notify_after_sec: 5 });
    expect(notifiers.map((n) => [n.config.notifications, n.config.notify_after_sec, n.stopped])).toEqual([
      [false, 30, true],
      [true, 5, false],
    ]);
    live.set({ ...live.current(), exclude_cwd_substrings: ['/tmp'] });
    expect(notifiers).toHaveLength(3);
    void stop();
    expect(notifiers.every((n) => n.stopped)).toBe(true);
    live.set({ ...live.current(), notifications: false });
    expect(notifiers).toHaveLength(3);
  });
});

describe('liveCtx', () => {
  it('reads the config at use time', () => {
    const live = createLiveConfig(testConfig());
    const ctx = liveCtx(testCtx(rx()), live);
    live.set({ ...live.current(), exclude_cwd_substrings: ['secret-project'] });
    expect(ctx.config.exclude_cwd_substrings).toEqual(['secret-project']);
    expect(ctx.platform).toBe('linux');
  });
});
