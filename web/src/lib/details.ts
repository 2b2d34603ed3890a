import type { SessionDetail } from './wire.js';

/** What the loader needs of the API client (api.ts) and of the session map (sessions.svelte.ts). */
interface DetailApi {
  readonly get: <T>(path: string) => Promise<T>;
}
interface DetailEntry {
  readonly detailStale: boolean;
  readonly summaryJson: string;
  detail: SessionDetail | undefined;
  detailOf: string;
}
interface DetailSessions {
  readonly get: (id: string) => DetailEntry | undefined;
}

/**
 * Fetches session details (`GET /api/sessions/:id`) for the cards on screen and the open detail
 * panel: a few at a time, each session at most once per `minGapMs` unless asked urgently, so a busy
 * session's patches do not turn into a request each.
 */
export interface DetailLoader {
  readonly request: (id: string, urgent?: boolean) => void;
  readonly stop: () => void;
}

export const createDetailLoader = (api: DetailApi, sessions: DetailSessions, options: { readonly concurrency?: number; readonly minGapMs?: number } = {}): DetailLoader => {
  const concurrency = options.concurrency ?? 4;
  const minGapMs = options.minGapMs ?? 2_000;
  const queued: string[] = [];
  const inFlight = new Set<string>();
  const lastAt = new Map<string, number>();
  const later = new Map<string, ReturnType<typeof setTimeout>>();
  let stopped = false;

  const pump = (): void => {
    while (!stopped && inFlight.size < concurrency && queued.length > 0) {
      const id = queued.shift();
      if (id === undefined) break;
      const entry = sessions.get(id);
      if (!entry || !entry.detailStale) continue;
      inFlight.add(id);
      lastAt.set(id, Date.now());
      const of = entry.summaryJson;
      api
        .get<SessionDetail>(`api/sessions/${encodeURIComponent(id)}`)
        .then((detail) => {
          const current = sessions.get(id);
          if (!current) return;
          current.detail = detail;
          current.detailOf = of;
        })
        .catch(() => {
          // Gone (404) or the server is away: the card shows what the summary has.
        })
        .finally(() => {
          inFlight.delete(id);
          // The summary changed while this answer was on its way: the card's request then found
          // this one in flight and was dropped, so ask again for the newer detail.
          if (sessions.get(id)?.summaryJson !== of) request(id);
          pump();
        });
    }
  };

  const request = (id: string, urgent = false): void => {
    if (stopped || inFlight.has(id) || queued.includes(id)) return;
    const wait = urgent ? 0 : (lastAt.get(id) ?? 0) + minGapMs - Date.now();
    if (wait > 0) {
      if (!later.has(id)) {
        later.set(
          id,
          setTimeout(() => {
            later.delete(id);
            request(id);
          }, wait),
        );
      }
      return;
    }
    if (urgent) queued.unshift(id);
    else queued.push(id);
    pump();
  };

  return {
    request,
    stop: () => {
      stopped = true;
      for (const timer of later.values()) clearTimeout(timer);
      later.clear();
    },
  };
};
