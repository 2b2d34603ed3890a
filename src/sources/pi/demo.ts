import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const notes: readonly DemoExchange[] = [
  { prompt: 'Rename todo.md to tasks.md and fix every link to it', answer: 'Renamed; 12 links in 7 notes updated, none left pointing at todo.md.' },
  { prompt: 'Group the tasks by week', answer: 'tasks.md now has a heading per ISO week, newest first; undated tasks stay under "Someday".' },
];

/** pi in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'pi'>[] = [
  { agent: 'pi', sessionId: `2026-03-10T09-30-00-123Z_${demoId(6)}`, meta: demoMeta('notes', 'claude-sonnet-4-5', 'Rename todo file', { version: '' }), tools: ['read', 'edit', 'bash'], pauseMs: 35_000, offsetMs: 9_000, compacts: true, conversation: notes },
];
