import { describe, expect, it } from 'vitest';
import type { SessionState } from '../../src/core/session.js';
import { emptySession } from '../../src/streams/empty-session.js';
import { isExcludedCwd, isHiddenForGood, isVisible, isWithinDir, selectVisible, windowMs, type VisibilityOptions } from '../../src/streams/visibility.js';
import { AGENT_KINDS } from '../../src/core/agents.js';

const NOW = 1_773_133_200_000;
const all: VisibilityOptions = { windowMinutes: undefined, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS) };
const s = (patch: Partial<SessionState>): SessionState => ({ ...emptySession('claude', 'id'), cwd: '/w/app', lastActivityAt: NOW - 60_000, userMessages: 1, ...patch });

describe('isWithinDir', () => {
  it.each([
    ['/a/b', '/a/b', true],
    ['/a/b/c', '/a/b', true],
    ['/a/b/', '/a/b', true],
    ['/a/b', '/a/b/', true],
    ['/a/bc', '/a/b', false],
    ['/a', '/a/b', false],
    ['/a/b/../x', '/a/b', false],
    ['/anything', '/', true],
    ['', '/a', false],
  ] as const)('%j within %j -> %s', (cwd, dir, expected) => {
    expect(isWithinDir(cwd, dir)).toBe(expected);
  });
});

describe('isVisible', () => {
  it('applies the window only when given; unknown activity times are outside any window', () => {
    expect(isVisible(s({ lastActivityAt: NOW - 31 * 60_000 }), NOW, { ...all, windowMinutes: 30 })).toBe(false);
    expect(isVisible(s({ lastActivityAt: NOW - 29 * 60_000 }), NOW, { ...all, windowMinutes: 30 })).toBe(true);
    expect(isVisible(s({ lastActivityAt: NOW - 99 * 86_400_000 }), NOW, all)).toBe(true);
    expect(isVisible(s({ lastActivityAt: 0 }), NOW, { ...all, windowMinutes: 30 })).toBe(false);
  });

  it('never lists a session with no dated record (an empty transcript), even without a window', () => {
    expect(isVisible(s({ lastActivityAt: 0 }), NOW, all)).toBe(false);
  });

  it('hides excluded cwds (literal, case-sensitive, anywhere in the full cwd)', () => {
    const options = { ...all, excludeCwdSubstrings: ['/tmp/', 'Scratch'] };
    expect(isVisible(s({ cwd: '/home/u/tmp/x' }), NOW, options)).toBe(false);
    expect(isVisible(s({ cwd: '/home/u/scratch' }), NOW, options)).toBe(true);
    expect(isVisible(s({ cwd: '/home/u/Scratch' }), NOW, options)).toBe(false);
    expect(isVisible(s({ cwd: '/x' }), NOW, { ...all, excludeCwdSubstrings: [''] })).toBe(true);
  });

  it('hides disabled agents, sub-agents, and grok/kimi sessions without a prompt', () => {
    expect(isVisible(s({ agent: 'codex' }), NOW, { ...all, agents: new Set(['claude']) })).toBe(false);
    expect(isVisible(s({ isSidechain: true }), NOW, all)).toBe(false);
    expect(isVisible(s({ agent: 'grok', userMessages: 0 }), NOW, all)).toBe(false);
    expect(isVisible(s({ agent: 'kimi', userMessages: 0 }), NOW, all)).toBe(false);
    expect(isVisible(s({ agent: 'claude', userMessages: 0 }), NOW, all)).toBe(true);
  });

  it('scopes to a directory, path-segment aware', () => {
    expect(isVisible(s({ cwd: '/w/app/sub' }), NOW, { ...all, dirs: ['/w/app'] })).toBe(true);
    expect(isVisible(s({ cwd: '/w/apple' }), NOW, { ...all, dirs: ['/w/app'] })).toBe(false);
  });

  it('scopes to a directory by any of its paths (as named, real path)', () => {
    const dirs = ['/tmp/link', '/private/tmp/real'];
    expect(isVisible(s({ cwd: '/private/tmp/real/sub' }), NOW, { ...all, dirs })).toBe(true);
    expect(isVisible(s({ cwd: '/tmp/link' }), NOW, { ...all, dirs })).toBe(true);
    expect(isVisible(s({ cwd: '/tmp/real' }), NOW, { ...all, dirs })).toBe(false);
  });
});

describe('selectVisible', () => {
  it('lists newest first, equal times by id', () => {
    const list = selectVisible(
      [s({ sessionId: 'b', lastActivityAt: NOW - 5 }), s({ sessionId: 'c', lastActivityAt: NOW - 1 }), s({ sessionId: 'a', lastActivityAt: NOW - 5 }), s({ sessionId: 'h', isSidechain: true })],
      NOW,
      all,
    );
    expect(list.map((x) => x.sessionId)).toEqual(['c', 'a', 'b']);
  });
});

describe('the visibility rule, in one place', () => {
  it('turns a window in minutes into milliseconds, every age staying every age', () => {
    expect(windowMs(30)).toBe(1_800_000);
    expect(windowMs(undefined)).toBeUndefined();
  });

  it('excludes by literal, case-sensitive fragments; an empty fragment hides nothing', () => {
    expect(isExcludedCwd('/w/secret/app', ['secret'])).toBe(true);
    expect(isExcludedCwd('/w/Secret/app', ['secret'])).toBe(false);
    expect(isExcludedCwd('/w/app', [''])).toBe(false);
  });

  it('hides sub-agents, disabled agents and excluded folders at any age', () => {
    expect(isHiddenForGood(s({}), all)).toBe(false);
    expect(isHiddenForGood(s({ isSidechain: true }), all)).toBe(true);
    expect(isHiddenForGood(s({}), { ...all, agents: new Set(['codex']) })).toBe(true);
    expect(isHiddenForGood(s({ cwd: '/w/secret' }), { ...all, excludeCwdSubstrings: ['secret'] })).toBe(true);
  });
});
