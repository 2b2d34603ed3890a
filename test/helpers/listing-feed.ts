import { isObservable, of, tap, type Observable } from 'rxjs';
import type { ListingFeed } from '../../src/sinks/http/store.js';
import type { PipelineFrame } from '../../src/streams/frames.js';
import { createListing } from '../../src/streams/listing.js';
import type { VisibilityOptions } from '../../src/streams/visibility.js';

/** Frames made by a test, fed to a real listing the way the pipeline feeds its own. */
export const feedOf = (frames: PipelineFrame | Observable<PipelineFrame>, visibility: VisibilityOptions): ListingFeed => {
  const listing = createListing({ visibility: () => visibility });
  const frame$ = (isObservable(frames) ? frames : of(frames)).pipe(tap((frame) => listing.push(frame)));
  return { frame$, listing, visibility };
};
