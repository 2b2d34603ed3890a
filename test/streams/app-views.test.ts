import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startPipeline, type Pipeline } from '../../src/app/pipeline.js';
import type { SessionEvent } from '../../src/core/session.js';
import type { PipelineFrame } from '../../src/streams/frames.js';
import { createListing } from '../../src/streams/listing.js';
import { EPOCH, rx, testConfig, testCtx } from '../helpers/marbles.js';

const turn = (sessionId: string, agoMs: number, extra: Partial<SessionEvent> = {}): SessionEvent[] => [
  { agent: 'claude', sessionId, type: 'meta', patch: { cwd: `/w/${sessionId}`, ...('patch' in extra ? extra.patch : {}) } },
  { agent: 'claude', sessionId, type: 'turn', at: EPOCH - agoMs, role: 'assistant', text: 'done' },
];

describe('the pipeline through the listing', () => {
  it('lists summaries and details with the config visibility: window, exclusions, sub-agents hidden, newest first', () => {
    const scheduler = rx();
    let frame: PipelineFrame | undefined;
    let pipeline: Pipeline | undefined;
    scheduler.run(() => {
      const events: SessionEvent[] = [
        ...turn('old', 31 * 60_000),
        ...turn('a', 60_000),
        ...turn('b', 30_000),
        ...turn('hidden', 1_000, { patch: { isSidechain: true } } as Partial<SessionEvent>),
        ...turn('skip-me', 1_000),
        { type: 'ready', agent: 'claude' },
      ];
      const ctx = testCtx(scheduler, testConfig({ exclude_cwd_substrings: ['skip-me'] }));
      const started = startPipeline(ctx, { sources: { claude: () => of(...events) }, agents: ['claude'] });
      started.frame$.subscribe((f) => (frame = f));
      scheduler.schedule(() => void started.dispose(), 10);
      pipeline = started;
    });
    if (!frame || !pipeline) throw new Error('the pipeline emitted no frame');
    const started = pipeline;
    const listing = createListing({ visibility: () => started.visibility, names: { a: 'named' } });
    listing.push(frame);
    listing.refresh();
    const summaries = listing.sessions().map((entry) => entry.summary);
    expect(summaries.map((s) => [s.session_id, s.activity, s.custom_name])).toEqual([
      ['b', 'waiting', ''],
      ['a', 'waiting', 'named'],
    ]);
    const anyAge = createListing({ visibility: () => ({ ...started.visibility, windowMinutes: undefined }) });
    anyAge.push(frame);
    anyAge.refresh();
    expect(anyAge.sessions().map((entry) => entry.summary.session_id)).toEqual(['b', 'a', 'old']);
  });
});
