import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { prepareQuery } from '../../src/search/query-syntax.js';
import { compareScopes } from '../../src/search/scope.js';
import { identifierParts, SEP, segment, unsegment } from '../../src/search/segment.js';
import { bracketHits, cleanSnippet, fallbackSnippet, HIT_CLOSE, HIT_OPEN, renderHits } from '../../src/search/snippet.js';

describe('segment', () => {
  it('puts a separator between the characters of scripts written without spaces, and nowhere else', () => {
    expect(segment('修复了刷新令牌')).toBe(['修', '复', '了', '刷', '新', '令', '牌'].join(SEP));
    expect(segment('fix 刷新 bug')).toBe(`fix 刷${SEP}新 bug`);
    expect(segment('キャッシュ')).toBe(['キ', 'ャ', 'ッ', 'シ', 'ュ'].join(SEP));
    expect(segment('버그를')).toBe(['버', '그', '를'].join(SEP));
    expect(segment('Größe café Исправил δοκιμή कैश')).toBe('Größe café Исправил δοκιμή कैश');
    expect(segment('plain ascii refreshToken')).toBe('plain ascii refreshToken');
  });

  it('keeps combining marks with their letter (Thai)', () => {
    // กิน: ก + sara i (a mark) + น
    expect(segment('กิน')).toBe(`กิ${SEP}น`);
  });

  it('unsegment undoes it', () => {
    for (const text of ['修复了刷新令牌', 'fix 刷新 bug', 'กิน', 'plain']) expect(unsegment(segment(text))).toBe(text);
  });

  it('lists the parts of camelCase identifiers once', () => {
    expect(identifierParts('refreshTokenIfNeeded calls refreshToken; HTTPServer and base64Encode')).toBe('refresh Token If Needed HTTP Server base64 Encode');
    expect(identifierParts('no identifiers here, snake_case_only')).toBe('');
  });
});

describe('prepareQuery', () => {
  it('quotes words FTS5 would read as syntax', () => {
    expect(prepareQuery('server.go').match).toBe('"server.go"');
    expect(prepareQuery('token-bucket').match).toBe('"token-bucket"');
    expect(prepareQuery('src/app.ts TODO:').match).toBe('"src/app.ts" AND "TODO:"');
    expect(prepareQuery('a,b').match).toBe('"a,b"');
  });

  it('keeps phrases, prefixes, boolean operators, parentheses and NEAR as typed', () => {
    expect(prepareQuery('"refresh race" AND oauth').match).toBe('"refresh race" AND oauth');
    expect(prepareQuery('refre* OR (token NOT bucket)').match).toBe('refre* OR ( token NOT bucket )');
    expect(prepareQuery('NEAR(token race, 5)').match).toBe('NEAR(token race, 5)');
    expect(prepareQuery('^fix').match).toBe('^fix');
  });

  it('segments unspaced scripts into a phrase of characters', () => {
    expect(prepareQuery('刷新').match).toBe(`"刷${SEP}新"`);
    expect(prepareQuery('"刷新令牌"').match).toBe(`"${['刷', '新', '令', '牌'].join(SEP)}"`);
  });

  it('matches a camelCase word whole or as the run of its parts', () => {
    expect(prepareQuery('IfNeeded').match).toBe('(IfNeeded OR parts : "If Needed")');
    expect(prepareQuery('refreshTok* race').match).toBe('(refreshTok* OR parts : "refresh Tok"*) AND race');
    expect(prepareQuery('NEAR(refreshToken race)').match).toBe('NEAR(refreshToken race)');
  });

  it('leaves what FTS5 cannot parse for FTS5 to refuse', () => {
    expect(prepareQuery('"unterminated').match).toBe('"unterminated');
    expect(prepareQuery('(foo').match).toBe('( foo');
    expect(prepareQuery('NEAR(a b').match).toBe('NEAR(a b');
  });

  it('drops words with nothing to search for, and lists the words searched', () => {
    expect(prepareQuery('fix - bug').match).toBe('fix AND bug');
    expect(prepareQuery('?').match).toBe('');
    expect(prepareQuery('Token refre* "a b"').terms).toEqual([
      { text: 'token', prefix: false },
      { text: 'refre', prefix: true },
      { text: 'a b', prefix: false },
    ]);
  });

  it('every prepared query of a table of typical ones is valid FTS5 that finds its message', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE m USING fts5(text, parts, tokenize = "unicode61 remove_diacritics 2")`);
    const text = 'Fixed the OAuth refresh race in refreshTokenIfNeeded() of src/auth/token-store.ts; 修复了刷新令牌; la requête échoue; session_id';
    db.prepare('INSERT INTO m (text, parts) VALUES (?, ?)').run(segment(text), identifierParts(text));
    const finds = (query: string): number => db.prepare('SELECT count(*) AS n FROM m WHERE m MATCH ?').pluck().get(prepareQuery(query).match) as number;
    for (const query of ['oauth', 'OAuth refresh', '"refresh race"', 'refreshTokenIfNeeded', 'refreshtokenifneeded', 'IfNeeded', 'refreshTok*', 'token-store.ts', 'src/auth/token-store.ts', '刷新', '令牌', 'requete', 'session_id', 'session', 'NEAR(oauth race, 3)', 'refresh NOT wombat', '(oauth OR wombat) race']) {
      expect(finds(query), query).toBe(1);
    }
    for (const query of ['wombat', 'refresh NOT race', '"race refresh"']) expect(finds(query), query).toBe(0);
  });
});

describe('snippets', () => {
  it('joins hits split by the separator, drops separators and flattens whitespace', () => {
    expect(cleanSnippet(`修复了${HIT_OPEN}刷${HIT_CLOSE}${SEP}${HIT_OPEN}新${HIT_CLOSE}${SEP}令\n\n牌`)).toBe(`修复了${HIT_OPEN}刷新${HIT_CLOSE}令 牌`);
  });

  it('marks a camelCase part FTS5 matched through the parts column', () => {
    const text = `${'word '.repeat(40)}then refreshTokenIfNeeded runs ${'more '.repeat(60)}`;
    const snippet = fallbackSnippet(text, [{ text: 'ifneeded', prefix: false }]) ?? '';
    expect(bracketHits(snippet)).toContain('refreshToken[IfNeeded] runs');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(fallbackSnippet('nothing here', [{ text: 'wombat', prefix: false }])).toBeUndefined();
  });

  it('writes hits as [...] on the wire and in color on a terminal; brackets of the message stay brackets', () => {
    const snippet = `items[0] holds the ${HIT_OPEN}token${HIT_CLOSE}`;
    expect(bracketHits(snippet)).toBe('items[0] holds the [token]');
    expect(renderHits(snippet, (hit) => `<${hit}>`)).toBe('items[0] holds the <token>');
    expect(renderHits(snippet)).toBe('items[0] holds the [token]');
  });
});

describe('index scope', () => {
  const scope = (agents: string[], excludeCwd: string[]) => ({ agents: agents as never[], excludeCwd });
  it('an agent enabled or an exclusion lifted widens it; the reverse narrows it', () => {
    expect(compareScopes(scope(['claude'], ['x']), scope(['claude'], ['x']))).toBe('same');
    expect(compareScopes(scope(['claude'], []), scope(['claude', 'codex'], []))).toBe('widened');
    expect(compareScopes(scope(['claude'], ['x']), scope(['claude'], []))).toBe('widened');
    expect(compareScopes(scope(['claude', 'codex'], []), scope(['claude'], []))).toBe('narrowed');
    expect(compareScopes(scope(['claude'], []), scope(['claude'], ['secret']))).toBe('narrowed');
    expect(compareScopes(undefined, scope(['claude'], []))).toBe('widened');
  });
});
