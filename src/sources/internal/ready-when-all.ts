import { merge, Observable } from 'rxjs';
import type { SessionEvent } from '../../core/session.js';

/**
 * The events of several sources of one agent as one source: everything as it comes, and one
 * `ready` once every source has said its own (nobody lists the agent before all were read).
 */
export const readyWhenAll = (sources: readonly Observable<SessionEvent>[]): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    let waiting = sources.length;
    return merge(...sources).subscribe({
      next: (event) => {
        if (event.type !== 'ready') subscriber.next(event);
        else if (--waiting === 0) subscriber.next(event);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });
