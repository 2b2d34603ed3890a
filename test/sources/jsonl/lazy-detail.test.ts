import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { emptySession } from '../../../src/streams/session-reducer.js';
import { lazyState, type Core } from '../../../src/sources/internal/lazy-detail.js';
import type { SessionState } from '../../../src/core/session.js';

const coreOf = (id: string): Core => {
  const { usageByMessage: _u, recentTools: _t, recentMessages: _m, ...core } = emptySession('claude', id);
  return core;
};
const detail = { usageByMessage: {}, recentTools: [{ name: 'Bash', at: 5, done: true }], recentMessages: [{ role: 'user', text: 'hi', at: 4 }] };

describe('lazyState (a restored state whose detail loads on first read)', () => {
  it('loads the detail once, on first read, and reads as a plain state (spread, JSON)', () => {
    let loads = 0;
    const state = lazyState(coreOf('a'), () => {
      loads += 1;
      return Buffer.from(JSON.stringify(detail));
    });
    expect(loads).toBe(0);
    expect(state.recentTools).toEqual(detail.recentTools);
    expect(state.recentMessages).toEqual(detail.recentMessages);
    expect(loads).toBe(1);
    const copy: SessionState = { ...state };
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    expect(Object.keys(copy).sort()).toEqual(Object.keys(emptySession('claude', 'a')).sort());
    expect(JSON.parse(JSON.stringify(state))).toEqual({ ...emptySession('claude', 'a'), ...detail });
  });

  it('a detail that is gone or invalid reads as empty', () => {
    expect(lazyState(coreOf('b'), () => undefined).recentMessages).toEqual([]);
    expect(lazyState(coreOf('c'), () => Buffer.from('{"recentTools": 3}')).recentTools).toEqual([]);
  });

  it('restored states share one V8 hidden class (per-state getters cost each its own: ~1 KiB a state)', () => {
    const module = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/sources/internal/lazy-detail.js')).href;
    const out = execFileSync(
      process.execPath,
      [
        '--allow-natives-syntax',
        '--input-type=module',
        '-e',
        `import { lazyState } from ${JSON.stringify(module)};
         const core = (id) => JSON.parse(JSON.stringify(${JSON.stringify(coreOf('x'))}).replace('"x"', JSON.stringify(id)));
         const a = lazyState(core('a'), () => undefined);
         const b = lazyState(core('b'), () => undefined);
         process.stdout.write(String(%HaveSameMap(a, b)));`,
      ],
      { encoding: 'utf8' },
    );
    expect(out).toBe('true');
  });
});
