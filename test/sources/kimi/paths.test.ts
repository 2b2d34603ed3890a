import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyKimiFile, kimiRoot, kimiStateSession } from '../../../src/sources/kimi/paths.js';
import { readKimiIndex, readKimiState } from '../../../src/sources/kimi/side-files.js';

const INDEX = fileURLToPath(new URL('../../../fixtures/kimi/.kimi-code/session_index.jsonl', import.meta.url));

describe('kimi paths', () => {
  it('picks the root from KIMI_SHARE_DIR, then KIMI_CODE_HOME, then ~/.kimi-code', () => {
    expect(kimiRoot({ HOME: '/h', KIMI_SHARE_DIR: '/s', KIMI_CODE_HOME: '/c' })).toBe('/s');
    expect(kimiRoot({ HOME: '/h', KIMI_CODE_HOME: '/c' })).toBe('/c');
    expect(kimiRoot({ HOME: '/h', KIMI_SHARE_DIR: '' })).toBe('/h/.kimi-code');
  });

  it('classifies main and sub-agent wire streams, and nothing else', () => {
    const s = '/r/sessions';
    expect(classifyKimiFile(s, '/r/sessions/wd_a_1/ses_1/agents/main/wire.jsonl')).toEqual({ sessionId: 'ses_1', parentId: 'ses_1', isSubagent: false });
    expect(classifyKimiFile(s, '/r/sessions/wd_a_1/ses_1/agents/sub_9/wire.jsonl')).toEqual({ sessionId: 'ses_1:sub_9', parentId: 'ses_1', isSubagent: true });
    expect(classifyKimiFile(s, '/r/sessions/wd_a_1/ses_1/context.jsonl')).toBeUndefined();
    expect(classifyKimiFile(s, '/r/sessions/wd_a_1/ses_1/agents/main/other.jsonl')).toBeUndefined();
    expect(classifyKimiFile(s, '/elsewhere/wd_a_1/ses_1/agents/main/wire.jsonl')).toBeUndefined();
    expect(kimiStateSession(s, '/r/sessions/wd_a_1/ses_1/state.json')).toBe('ses_1');
    expect(kimiStateSession(s, '/r/sessions/wd_a_1/state.json')).toBeUndefined();
    expect(kimiStateSession(s, '/r/sessions/wd_a_1/ses_1/session-meta/state.json')).toBe('ses_1');
    expect(kimiStateSession(s, '/r/sessions/wd_a_1/ses_1/agents/state.json')).toBeUndefined();
  });
});

describe('kimi side files', () => {
  it('maps sessions to their working directory by session directory name, skipping torn lines', () => {
    expect(readKimiIndex(readFileSync(INDEX, 'utf8'))).toEqual(
      new Map([
        ['ses_01JNX7Q2', '/home/dev/invoicer'],
        ['ses_legacy01', '/home/dev/scripts'],
        ['ses_01JNZ000', '/home/dev/invoicer'],
      ]),
    );
    expect(readKimiIndex('{"sessionId":"only-id","workDir":"/w"}\n{"sessionId":"x"}\n')).toEqual(new Map([['only-id', '/w']]));
  });

  it('reads the title from state.json and nothing from a blank or broken one', () => {
    expect(readKimiState('{"title":"  Add PDF export ","isCustomTitle":false}')).toEqual({ agentName: 'Add PDF export' });
    expect(readKimiState('{"title":""}')).toEqual({});
    expect(readKimiState('{"title":')).toEqual({});
    // state.json's cwd; releases up to 0.29 named it workDir.
    expect(readKimiState('{"title":"T","cwd":"/w/new","workDir":"/w/old"}')).toEqual({ agentName: 'T', cwd: '/w/new' });
    expect(readKimiState('{"title":"T","workDir":"/w/old"}')).toEqual({ agentName: 'T', cwd: '/w/old' });
  });
});
