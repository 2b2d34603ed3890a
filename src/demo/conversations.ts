/** One prompt of a demo session and the agent's answer to it. */
export interface DemoExchange {
  readonly prompt: string;
  readonly answer: string;
}

/** For a session without exchanges of its own. */
export const GENERIC: readonly DemoExchange[] = [
  { prompt: 'Add retry with backoff to the HTTP client', answer: 'Done: retries now back off 1 s, 5 s, 30 s and the tests pass.' },
  { prompt: 'Write tests for the invoice rounding', answer: 'Added 6 tests; two found a real rounding bug, fixed in money.ts.' },
  { prompt: 'Profile the slow startup and fix the worst offender', answer: 'Startup got much faster by loading the terminal UI lazily.' },
];
