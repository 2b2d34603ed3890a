import { hasUnsafeCharacters } from './terminal-safe.js';

/**
 * Which characters a session's custom name may hold. A name is shown in tables, titles and
 * notifications: a control character acts on the terminal, a bidi override reorders what follows
 * it, a zero-width character makes two names look alike.
 */
export const NAME_CHARACTERS_RULE = 'name must not contain control, bidi or zero-width characters';

/** Why `name` is refused, or undefined when its characters are fine. */
export const nameCharactersProblem = (name: string): string | undefined => (hasUnsafeCharacters(name) ? NAME_CHARACTERS_RULE : undefined);
