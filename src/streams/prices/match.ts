import type { ModelPrice } from './snapshot.js';

/**
 * The table's entry of a model name as an agent writes it, or undefined: never another model's.
 * Tried in order: the name; the name under each provider prefix the table uses (`xai/grok-4`);
 * the name without the provider an agent or a router put in front (`anthropic/`, `openrouter/x-ai/`);
 * a Vertex `@` version as a dated suffix, then without it; without a `[1m]`-style tag; without a
 * dated suffix (`-20250514`, `-2025-08-07`); and last the dated releases of an undated name when
 * they all cost the same.
 */
export const findModelPrice = (model: string, models: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined => {
  const name = model.trim().toLowerCase();
  if (name === '') return undefined;
  for (const candidate of candidates(name)) {
    const hit = lookUp(candidate, models);
    if (hit !== undefined) return hit;
  }
  return undefined;
};

/** The prefixes under which the table files models of some providers (`gemini/gemini-2.5-pro`). */
const TABLE_PREFIXES = ['', 'gemini/', 'xai/', 'moonshot/', 'deepseek/', 'dashscope/'];

const DATED = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;
const DATE_ONLY = /^(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

const candidates = (name: string): string[] => {
  const bare = name.slice(name.lastIndexOf('/') + 1);
  const forms = [name, bare];
  const at = bare.indexOf('@');
  if (at !== -1) forms.push(`${bare.slice(0, at)}-${bare.slice(at + 1)}`, bare.slice(0, at));
  for (const form of [...forms]) {
    const untagged = form.replace(/\[[^\]]*\]$/, '');
    if (untagged !== form) forms.push(untagged);
  }
  for (const form of [...forms]) if (DATED.test(form)) forms.push(form.replace(DATED, ''));
  return [...new Set(forms)];
};

const lookUp = (form: string, models: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined => {
  for (const prefix of TABLE_PREFIXES) {
    const hit = models[`${prefix}${form}`];
    if (hit !== undefined) return hit;
  }
  return datedRelease(form, models);
};

const datedRelease = (form: string, models: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined => {
  let found: ModelPrice | undefined;
  for (const prefix of TABLE_PREFIXES) {
    const stem = `${prefix}${form}-`;
    for (const [key, price] of Object.entries(models)) {
      if (!key.startsWith(stem) || !DATE_ONLY.test(key.slice(stem.length))) continue;
      if (found !== undefined && !samePrice(found, price)) return undefined;
      found = price;
    }
  }
  return found;
};

const samePrice = (a: ModelPrice, b: ModelPrice): boolean => JSON.stringify({ ...a, provider: '' }) === JSON.stringify({ ...b, provider: '' });
