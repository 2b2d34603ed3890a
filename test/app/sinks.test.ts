import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPipeline } from '../../src/app/pipeline.js';
import { monitorSinks, sinkList, type MonitorSinkDeps } from '../../src/app/sinks.js';
import { createLiveConfig } from '../../src/config/live.js';
import { loadConfig, type Loaded } from '../../src/config/load.js';
import type { CliIo } from '../../src/core/io.js';
import { rx, testCtx } from '../helpers/marbles.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

describe('monitorSinks: the record of what a running monitor starts besides its interfaces', () => {
  let home: TempHome;
  let loaded: Loaded;
  beforeAll(async () => {
    home = await makeTempHome();
    loaded = await loadConfig(home.env, { write: false });
  });
  afterAll(async () => home.cleanup());

  const deps = (options: { readonly demo: boolean; readonly tui: boolean }): MonitorSinkDeps => {
    const io: CliIo = {
      argv: [],
      env: home.env,
      cwd: home.home,
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      platform: 'linux',
      version: '0.0.0',
    };
    const pipeline = startPipeline(testCtx(rx(), loaded.config), { sources: {}, agents: ['claude'], deferSources: true });
    return { io, loaded, live: createLiveConfig(loaded.config), pipeline, agents: ['claude'], ...options, releaseDetails: () => undefined, api: {} };
  };
  const started = (options: { readonly demo: boolean; readonly tui: boolean }): string[] =>
    Object.entries(monitorSinks(deps(options)))
      .filter(([, sink]) => sink !== undefined)
      .map(([name]) => name);

  it('starts webhooks except in --demo, and the empty-list notice only headless and not in --demo', () => {
    expect(started({ demo: false, tui: false })).toEqual(['attentionLog', 'compactor', 'liveConfig', 'webhooks', 'headlessEmpty']);
    expect(started({ demo: false, tui: true })).toEqual(['attentionLog', 'compactor', 'liveConfig', 'webhooks']);
    expect(started({ demo: true, tui: false })).toEqual(['attentionLog', 'compactor', 'liveConfig']);
  });

  it('sinkList keeps the started ones, in the record order', () => {
    const record = monitorSinks(deps({ demo: true, tui: true }));
    expect(sinkList(record)).toEqual([record.attentionLog, record.compactor, record.liveConfig]);
  });
});
