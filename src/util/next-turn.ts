/** Resolves on the event loop's next turn: long synchronous work yields with it so timers and watchers keep flowing. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
