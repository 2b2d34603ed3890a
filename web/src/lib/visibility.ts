/**
 * One IntersectionObserver for every card: a card asks for its detail (last message,
 * sparkline) only while it is on screen, so 1,000 sessions cost a handful of requests.
 */
const callbacks = new WeakMap<Element, (visible: boolean) => void>();
let observer: IntersectionObserver | undefined;

const shared = (): IntersectionObserver => {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) callbacks.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: '200px 0px' },
  );
  return observer;
};

/** A Svelte attachment-style action: `use:onScreen={(visible) => ...}`. */
export const onScreen = (node: Element, callback: (visible: boolean) => void): { destroy: () => void; update: (next: (visible: boolean) => void) => void } => {
  callbacks.set(node, callback);
  shared().observe(node);
  return {
    update: (next) => callbacks.set(node, next),
    destroy: () => {
      callbacks.delete(node);
      observer?.unobserve(node);
    },
  };
};
