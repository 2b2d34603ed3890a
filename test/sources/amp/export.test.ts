import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAmpExportSync, scheduleRefresh } from '../../../src/sources/amp/export-sync.js';
import { createAmpSource } from '../../../src/sources/amp/index.js';
import { countLocalMessages, parseThreadList, planExports } from '../../../src/sources/amp/thread-list.js';
import { findOnPathAsync } from '../../../src/util/find-on-path.js';
import { makeCtx, useFixtureHome, waitFor } from '../../helpers/source-harness.js';

const LIST = [
  'Title                                   Last Updated   Visibility  Messages  Thread ID',
  '──────────────────────────────────────  ─────────────  ──────────  ────────  ──────────────────────────────────────',
  'Fix flaky  websocket test               2m ago         Private     4         T-0195e3a2-9b1c-7d44-a1f0-2c3d4e5f6a7b',
  'Server only thread                      1h ago         Private     2         T-01960000-eeee-7fff-8000-000000000777',
  'broken row without an id                1h ago         Private     2         ../../etc/passwd',
  '',
].join('\n');

describe('amp thread list', () => {
  it('reads rows from the right, skipping headers and rows whose id is not a thread id', () => {
    expect(parseThreadList(LIST)).toEqual([
      { id: 'T-0195e3a2-9b1c-7d44-a1f0-2c3d4e5f6a7b', messages: 4 },
      { id: 'T-01960000-eeee-7fff-8000-000000000777', messages: 2 },
    ]);
  });

  it('exports threads that are missing, behind, or grew since the last listing', () => {
    const remote = [
      { id: 'T-a', messages: 4 },
      { id: 'T-b', messages: 2 },
      { id: 'T-c', messages: 3 },
      { id: 'T-d', messages: 5 },
    ];
    const local: Record<string, number> = { 'T-a': 4, 'T-c': 1, 'T-d': 5 };
    expect(planExports(remote, (id) => local[id] ?? -1, new Map([['T-d', 4]]))).toEqual(['T-b', 'T-c', 'T-d']);
    expect(countLocalMessages(undefined)).toBe(-1);
    expect(countLocalMessages('{"messages":[{"messageId":0},{"messageId":1}]}')).toBe(2);
  });
});

describe('scheduleRefresh', () => {
  const rx = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

  it('refreshes at once and then once a minute', () => {
    const scheduler = rx();
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(scheduleRefresh(() => cold('1s (a|)'), scheduler, 60_000), '^ 150s !').toBe('1s a 59999ms a 59999ms a');
    });
  });

  it('skips a tick while a slow refresh is still running', () => {
    const scheduler = rx();
    scheduler.run(({ cold, expectObservable }) => {
      // A refresh that takes 90 s: the 60 s tick is dropped, the 120 s one runs.
      expectObservable(scheduleRefresh(() => cold('90s (a|)'), scheduler, 60_000), '^ 250s !').toBe('90s a 119999ms a');
    });
  });
});

const FAKE_AMP = (log: string) => `#!/bin/sh
echo "$@ NO_COLOR=$NO_COLOR" >> "${log}"
if [ "$1" = threads ] && [ "$2" = list ]; then
  printf 'Title  Last Updated  Visibility  Messages  Thread ID\\n-----  -----  -----  -----  -----\\n'
  printf 'Server only thread  1h ago  Private  1  T-01960000-eeee-7fff-8000-000000000777\\n'
  exit 0
fi
if [ "$1" = threads ] && [ "$2" = export ]; then
  printf '{"id":"%s","created":1773141000000,"title":"From the server","messages":[{"role":"user","messageId":0,"content":[{"type":"text","text":"hi"}],"meta":{"sentAt":1773141000100}}]}' "$3"
  exit 0
fi
exit 3
`;

describe('amp export refresh with a fake amp on PATH', () => {
  const fx = useFixtureHome('agentwatch-ampx-');
  let bin: string;
  let log: string;
  beforeEach(async () => {
    bin = path.join(fx.home.root, 'bin');
    log = path.join(fx.home.root, 'amp.log');
    await mkdir(bin);
  });

  it('is a no-op without an amp binary on PATH', async () => {
    const env = { ...fx.home.env, PATH: bin };
    expect(await findOnPathAsync('amp', { path: env.PATH })).toBeUndefined();
    expect(await createAmpExportSync(env, path.join(fx.home.root, 'threads'), () => undefined).run()).toEqual([]);
  });

  it('lists with NO_COLOR, exports the missing thread into threads/, and the source shows it', async () => {
    await writeFile(path.join(bin, 'amp'), FAKE_AMP(log));
    await chmod(path.join(bin, 'amp'), 0o755);
    const env = { ...fx.home.env, PATH: `${bin}:/usr/bin:/bin` };
    const run = fx.start(createAmpSource(), makeCtx(env));
    await waitFor('ready', () => run.isReady());
    await waitFor('the exported thread', () => run.sessions().has('T-01960000-eeee-7fff-8000-000000000777'));
    expect(run.sessions().get('T-01960000-eeee-7fff-8000-000000000777')).toMatchObject({ agentName: 'From the server', userMessages: 1 });
    const calls = (await readFile(log, 'utf8')).trim().split('\n');
    expect(calls).toEqual(['threads list --no-color NO_COLOR=1', 'threads export T-01960000-eeee-7fff-8000-000000000777 --no-color NO_COLOR=1']);
    // Second refresh (forced here; the source waits a minute): the local copy is current, nothing is exported.
    const threads = path.join(fx.home.env.XDG_DATA_HOME as string, 'amp', 'threads');
    expect(await createAmpExportSync(env, threads, () => undefined).run()).toEqual([]);
  });
});
