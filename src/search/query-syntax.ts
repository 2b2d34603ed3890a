import { camelParts, segment } from './segment.js';

/**
 * A user's query, made ready for FTS5 MATCH. People type `server.go`, `token-bucket`,
 * `src/app.ts`, `TODO:` or `刷新`; FTS5 reads `.`, `-`, `/` and `:` as syntax and fails or
 * (worse) reads `token-bucket` as a column filter. Each such word is quoted, so it is searched as
 * the phrase of its tokens. Everything FTS5 offers stays as typed: `"phrases"`, `prefix*`,
 * `^initial`, `AND` / `OR` / `NOT`, parentheses, `NEAR(a b, 5)`. What FTS5 still cannot parse
 * (an unterminated quote, a dangling operator, an unbalanced parenthesis) fails there: malformed.
 */
export interface PreparedQuery {
  /** The FTS5 expression. */
  readonly match: string;
  /** The words searched for, lowercased, for highlighting what FTS5's snippet cannot mark. */
  readonly terms: readonly { readonly text: string; readonly prefix: boolean }[];
}

const OPERATORS = new Set(['AND', 'OR', 'NOT']);
/** Characters FTS5 accepts in a bareword: ASCII letters, digits, `_`, and anything non-ASCII. */
const BAREWORD = /^[A-Za-z0-9_\u0080-\uFFFF]+$/u;
/** FTS5 reads non-ASCII punctuation in a bareword as separators; letters, digits and marks are words. */
const HAS_WORD = /[\p{L}\p{N}]/u;

const quote = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** A word of the query (no spaces, quotes or parentheses): kept, or quoted as a phrase. */
const prepareWord = (raw: string, terms: PreparedQuery['terms'][number][], inNear: boolean): string | undefined => {
  if (OPERATORS.has(raw)) return raw;
  const initial = raw.startsWith('^') ? '^' : '';
  const prefix = raw.length > initial.length && raw.endsWith('*') ? '*' : '';
  const core = raw.slice(initial.length, raw.length - prefix.length);
  if (!HAS_WORD.test(core)) return undefined;
  terms.push({ text: core.toLowerCase(), prefix: prefix !== '' });
  const segmented = segment(core);
  const whole = `${initial}${segmented === core && BAREWORD.test(core) ? core : quote(segmented)}${prefix}`;
  // A camelCase word is the identifier itself, or the run of its parts among the index's parts
  // (`IfNeeded` finds `refreshTokenIfNeeded`). NEAR takes phrases only: there it stays whole.
  const parts = inNear ? undefined : camelParts(core);
  return parts ? `(${whole} OR parts : ${quote(parts.join(' '))}${prefix})` : whole;
};

type Item =
  | { readonly kind: 'operand' | 'op' | 'open' | 'close' | 'raw'; readonly text: string }
  /** Inside NEAR( ... ): phrases, a comma and a distance, written as they come. */
  | { readonly kind: 'near'; readonly text: string };

/** Between two operands FTS5 wants an operator once a group is involved: an explicit AND (same precedence as the implicit one). */
const join = (items: readonly Item[]): string => {
  let out = '';
  let previous: Item | undefined;
  for (const item of items) {
    const endsOperand = previous?.kind === 'operand' || previous?.kind === 'close';
    const startsOperand = item.kind === 'operand' || item.kind === 'open';
    if (previous) out += endsOperand && startsOperand ? ' AND ' : ' ';
    out += item.text;
    previous = item;
  }
  return out;
};

/**
 * Rewrites a query for MATCH (pure). Unknown shapes pass through unchanged, so FTS5 reports them.
 *
 * @example prepareQuery('token-bucket server.go').match // '"token-bucket" AND "server.go"'
 */
export const prepareQuery = (query: string): PreparedQuery => {
  const items: Item[] = [];
  const terms: { text: string; prefix: boolean }[] = [];
  /** The NEAR( group being read, as text, until its `)`. */
  let near: string | undefined;
  const emit = (kind: Item['kind'], text: string): void => {
    if (near !== undefined) near += near.endsWith('(') || text === ',' || text === ')' ? text : ` ${text}`;
    else items.push({ kind, text });
  };
  let i = 0;
  while (i < query.length) {
    const c = query[i] as string;
    if (/\s/u.test(c)) {
      i += 1;
      continue;
    }
    if (c === '"') {
      // A quoted phrase ("" is a quote inside it): its text is segmented like the index's.
      let j = i + 1;
      let text = '';
      for (; j < query.length; j += 1) {
        if (query[j] !== '"') text += query[j];
        else if (query[j + 1] === '"') {
          text += '"';
          j += 1;
        } else break;
      }
      if (j >= query.length) {
        emit('raw', query.slice(i)); // unterminated: FTS5 says so
        break;
      }
      const star = query[j + 1] === '*' ? '*' : '';
      terms.push({ text: text.toLowerCase(), prefix: star !== '' });
      emit('operand', `${quote(segment(text))}${star}`);
      i = j + 1 + star.length;
      continue;
    }
    if (c === '(' || c === ')' || (c === ',' && near !== undefined)) {
      if (near !== undefined) {
        emit('near', c);
        if (c === ')') {
          items.push({ kind: 'operand', text: near });
          near = undefined;
        }
      } else emit(c === '(' ? 'open' : c === ')' ? 'close' : 'raw', c);
      i += 1;
      continue;
    }
    let j = i;
    while (j < query.length && !(near !== undefined ? /[\s"(),]/u : /[\s"()]/u).test(query[j] as string)) j += 1;
    const word = query.slice(i, j);
    i = j;
    if (word === 'NEAR' && query[j] === '(' && near === undefined) {
      near = 'NEAR(';
      i += 1;
    } else if (near !== undefined && /^\d+$/u.test(word) && near.endsWith(',')) emit('near', word);
    else {
      const prepared = prepareWord(word, terms, near !== undefined);
      if (prepared !== undefined) emit(OPERATORS.has(word) ? 'op' : 'operand', prepared);
    }
  }
  if (near !== undefined) items.push({ kind: 'raw', text: near }); // unclosed NEAR(: FTS5 says so
  return { match: join(items), terms };
};
