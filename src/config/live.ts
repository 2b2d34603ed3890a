import { BehaviorSubject, type Observable } from 'rxjs';
import type { Config } from './effective.js';

/**
 * The running monitor's config: what it started with, replaced when the Settings panel saves a
 * change (PUT /api/config). Readers that must follow changes call `current()` at use time or
 * subscribe to `changes$`; the rest keep what they read at start (PUT says which need a restart).
 */
export interface LiveConfig {
  readonly current: () => Config;
  /** The current config on subscription, then each new one. */
  readonly changes$: Observable<Config>;
  readonly set: (config: Config) => void;
}

export const createLiveConfig = (initial: Config): LiveConfig => {
  const subject = new BehaviorSubject<Config>(initial);
  return {
    current: () => subject.getValue(),
    changes$: subject.asObservable(),
    set: (config) => subject.next(config),
  };
};
