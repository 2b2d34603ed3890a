import { afterEach, describe, expect, it } from 'vitest';
import { openSearchDb } from '../../src/search/index-db.js';
import { QuerySyntaxError, searchIndex } from '../../src/search/query.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** What FTS5 refuses in a query is the user's mistake (a 400, exit 2), never an internal error. */
let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

describe('malformed queries', () => {
  it.each([
    ['"unterminated', /a quote is not closed/],
    ['fix AND', /ends too early/],
    ['NEAR(a b, -1)', /expected integer/],
    ['NEAR(a b, x)', /./],
  ])('%s is a QuerySyntaxError naming the query', async (query, reason) => {
    home = await makeTempHome('agentwatch-query-errors-');
    const { db } = openSearchDb(home.env);
    try {
      let caught: unknown;
      try {
        searchIndex(db, query, { agents: ['claude'], limit: 10, excludeCwd: [] });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(QuerySyntaxError);
      expect((caught as Error).message).toContain(`malformed search query ${JSON.stringify(query)}`);
      expect((caught as Error).message).toMatch(reason);
    } finally {
      db.close();
    }
  });
});
