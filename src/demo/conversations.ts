/** One prompt of a demo session and the agent's answer to it. */
export interface DemoExchange {
  readonly prompt: string;
  readonly answer: string;
}

/**
 * What each demo project's session talks about, one exchange per loop (then round again), so
 * every card and detail panel shows its own work. Keyed by the project folder; a project without
 * an entry falls back to `GENERIC`.
 */
export const DEMO_CONVERSATIONS: Readonly<Record<string, readonly DemoExchange[]>> = {
  'acme-api': [
    { prompt: 'Add a token-bucket rate limiter to POST /login, 5 tries a minute per IP', answer: 'Added src/limits/bucket.ts and wired it into the login route; 429 with Retry-After, 4 new tests pass.' },
    { prompt: 'Make the limit configurable per route', answer: 'Limits now come from config/routes.yaml; the login route keeps 5/min, the others default to 60/min.' },
    { prompt: 'Does it still work behind the load balancer?', answer: 'It keyed on the proxy address; it now reads X-Forwarded-For from trusted proxies only.' },
  ],
  website: [
    { prompt: 'Rewrite the hero copy: shorter, say what it does in one line', answer: 'New hero: "Ship invoices your clients pay the same day." Subline and button text updated to match.' },
    { prompt: 'Give me three variants of the pricing intro', answer: 'Three variants are in copy/pricing.md, from plain to playful; I would pick the second.' },
  ],
  billing: [
    { prompt: 'Why is the JPY total off by one yen on orders with many lines?', answer: 'Each line was rounded to cents before summing; JPY has no minor unit. Rounding now happens once, on the total.' },
    { prompt: 'Add a regression test with a 40-line JPY order', answer: 'Added invoice_jpy_test.go with the 40-line order from the ticket; it failed before the fix and passes now.' },
  ],
  infra: [
    { prompt: 'terraform plan shows drift on the staging bucket policy, find out why', answer: 'Someone added a statement by hand in the console; I moved it into policies/staging.tf so plan is clean.' },
  ],
  notes: [
    { prompt: 'Rename todo.md to tasks.md and fix every link to it', answer: 'Renamed; 12 links in 7 notes updated, none left pointing at todo.md.' },
    { prompt: 'Group the tasks by week', answer: 'tasks.md now has a heading per ISO week, newest first; undated tasks stay under "Someday".' },
  ],
  'mobile-app': [
    { prompt: 'Queue writes while offline and sync them when the network is back', answer: 'Writes go to an IndexedDB outbox and replay in order on reconnect; conflicts keep the server copy and flag the item.' },
    { prompt: 'Show the user how many changes are waiting to sync', answer: 'A badge on the sync icon shows the outbox count and clears when the queue drains.' },
  ],
  parser: [
    { prompt: 'The tokenizer is slow on big files, profile it', answer: 'String concatenation in the identifier loop was quadratic; slicing the input instead makes a 5 MB file 9x faster.' },
    { prompt: 'Does the speedup break unicode identifiers?', answer: 'No: the slice works on code points; I added tests with Greek and CJK identifiers and they pass.' },
  ],
  dashboard: [
    { prompt: 'The chart tooltips cover the data point, move them above it', answer: 'Tooltips now sit above the point and flip below near the top edge. Should I also round the values to one decimal?' },
    { prompt: 'Yes, one decimal, and show the unit', answer: 'Values read like "12.4 ms" now; the unit comes from the series metadata.' },
  ],
  scraper: [
    { prompt: 'Rate-limit the crawler to 2 requests a second per host', answer: 'Added a per-host limiter in fetch.py; hosts are crawled in parallel, each at 2 requests a second.' },
    { prompt: 'Respect robots.txt crawl-delay too', answer: 'A crawl-delay in robots.txt now overrides the default rate when it is slower.' },
  ],
  invoicer: [
    { prompt: 'Export invoices as PDF with the company logo', answer: 'PDF export works for single invoices and batches; the logo comes from settings and falls back to the name.' },
    { prompt: 'The totals column is cut off in A4', answer: 'Column widths now follow the page size; A4 and Letter both fit, checked with a 30-line invoice.' },
  ],
  'design-system': [
    { prompt: 'Add primary, secondary and ghost variants to Button', answer: 'Button takes variant="primary|secondary|ghost"; stories and snapshots added, the old "outline" prop still works.' },
    { prompt: 'Check the contrast of the ghost variant', answer: 'Ghost text was 3.9:1 on the dark theme; darkened to pass AA at 4.6:1.' },
  ],
  weather: [
    { prompt: 'Add a /forecast endpoint with 7 days of data', answer: 'GET /forecast?lat=&lon= returns 7 days from the cached provider data; 404 outside the covered area.' },
    { prompt: 'Cache the provider calls for 10 minutes', answer: 'Responses are cached per rounded coordinate for 10 minutes; a test checks one provider call for two requests.' },
  ],
  ledger: [
    { prompt: 'Use half-even rounding for the interest calculation', answer: 'Interest uses banker\'s rounding now; the year-end totals match the bank statement to the cent.' },
  ],
  shop: [
    { prompt: 'Hide products with zero stock from the listing', answer: 'Out-of-stock products are hidden from listings and search but still reachable by their link, marked "sold out".' },
    { prompt: 'Email me when a hidden product is restocked', answer: 'A restock hook sends one email per product when its stock goes from 0 to more; unsubscribe link included.' },
  ],
  bakery: [
    { prompt: 'Add a recipe page for the sourdough loaf with a printable layout', answer: 'Added /recipes/sourdough with ingredient weights and a print stylesheet; the page passes the accessibility checks.' },
    { prompt: 'Scale the ingredients when the visitor picks a number of loaves', answer: 'A loaves selector rescales every weight, rounded to 5 g; the starter stays in grams, never cups.' },
  ],
  garden: [
    { prompt: 'Build a watering schedule from the soil moisture readings', answer: 'The scheduler waters a bed when its moisture stays under 30 % for two readings; the plan for the week is in schedule.json.' },
    { prompt: 'Skip watering when rain is forecast', answer: 'Beds are skipped when the forecast gives more than 5 mm in the next 12 hours; two tests cover the edge.' },
  ],
  'orders-api': [
    { prompt: 'Paginate GET /orders with cursors instead of page numbers', answer: 'GET /orders takes ?cursor= and returns next_cursor; the old ?page= still works for a release, marked deprecated.' },
    { prompt: 'Keep the order stable when two orders share a timestamp', answer: 'The cursor now encodes the time and the id, so ties keep their order; a test inserts 50 orders in one millisecond.' },
  ],
};

/** For a project without its own exchanges. */
export const GENERIC: readonly DemoExchange[] = [
  { prompt: 'Add retry with backoff to the HTTP client', answer: 'Done: retries now back off 1 s, 5 s, 30 s and the tests pass.' },
  { prompt: 'Write tests for the invoice rounding', answer: 'Added 6 tests; two found a real rounding bug, fixed in money.ts.' },
  { prompt: 'Profile the slow startup and fix the worst offender', answer: 'Startup got much faster by loading the terminal UI lazily.' },
];
