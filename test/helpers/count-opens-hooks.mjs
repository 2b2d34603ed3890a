// Module resolution hook for count-opens.mjs: the application's `better-sqlite3` is the counting wrapper.
import { URL } from 'node:url';
const WRAPPER = new URL('./count-opens-sqlite.mjs', import.meta.url).href;

export const resolve = async (specifier, context, next) =>
  specifier === 'better-sqlite3' && context.parentURL !== WRAPPER ? { url: WRAPPER, shortCircuit: true } : next(specifier, context);
