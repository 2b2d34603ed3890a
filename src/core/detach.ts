/**
 * A copy of `text` that holds only its own characters. V8 makes a slice or trim of 13 or more
 * characters a view into the whole string it was cut from, so 300 characters kept from a
 * multi-KB message kept the whole message alive for as long as the session was held.
 * NOTE: slicing a concatenation flattens it into a new string first; the result is a view into
 * that copy of `text` (one character longer), not into the original.
 */
export const detach = (text: string): string => (text.length < 13 ? text : (text + ' ').slice(0, -1));
