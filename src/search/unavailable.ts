/** The index cannot be opened now (its disk is full, read-only, forbidden or locked): GET /api/search answers 503. */
export class SearchUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchUnavailableError';
  }
}
