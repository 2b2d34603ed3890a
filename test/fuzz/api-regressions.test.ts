import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApiHarness, TOKEN, type ApiHarness } from './api-server.js';

/** What fuzzing the API (api-bad-input, api-config-writes and probes around them) found, pinned. */

let harness: ApiHarness;
beforeEach(async () => {
  harness = await makeApiHarness();
});
afterEach(async () => {
  await harness.close();
});

const auth = { authorization: `Bearer ${TOKEN}` };
const putConfig = (payload: string) => harness.app.inject({ method: 'PUT', url: '/api/config', headers: { ...auth, 'content-type': 'application/json' }, payload });

describe('PUT /api/config with a value nested thousands of levels deep', () => {
  it('is a 400 naming where (not a 500 from a stack overflow), and the file is left as it is', async () => {
    const before = await readFile(harness.configFile, 'utf8');
    const depth = 5_000;
    const answer = await putConfig(`{"webhooks":[{"name":"ci","url":"http://127.0.0.1:9/","extra":${'['.repeat(depth)}${']'.repeat(depth)}}]}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: 'webhooks[0].extra: nested more than 64 levels deep' });
    expect(await readFile(harness.configFile, 'utf8')).toBe(before);
  });
});

describe('PUT /api/config over a file holding a number JSON cannot write back as it is written', () => {
  it('is a 409 naming the number, and the file is left as it is (12345678901234567890 is not saved as 12345678901234567000)', async () => {
    const text = (await readFile(harness.configFile, 'utf8')).replace(/\n}\n$/, ',\n  "my_id": 12345678901234567890\n}\n');
    await writeFile(harness.configFile, text);
    const answer = await putConfig('{"window_minutes": 45}');
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error).toMatch(/config\.json: cannot save the change: line \d+, column 12: the number 12345678901234567890 would be saved as 12345678901234567000/);
    expect(await readFile(harness.configFile, 'utf8')).toBe(text);
  });
});

describe('an error answer quotes at most 200 characters of what the client sent', () => {
  it('an unknown route with a 10,000-character path, a missing dashboard file, a body of a long Content-Type', async () => {
    const long = 'x'.repeat(10_000);
    const route = await harness.app.inject({ method: 'GET', url: `/api/${long}/more`, headers: auth });
    expect(route.statusCode).toBe(404);
    expect(route.json().error).toBe(`no route GET /api/${'x'.repeat(195)}…`);
    const file = await harness.app.inject({ method: 'GET', url: `/assets/${long}` });
    expect(file.statusCode).toBe(404);
    expect(file.json().error).toBe(`no file /assets/${'x'.repeat(193)}…`);
    const type = await harness.app.inject({ method: 'PUT', url: '/api/config', headers: { ...auth, 'content-type': `text/xml; ${'p=1; '.repeat(2_000)}` }, payload: '{}' });
    expect(type.statusCode).toBe(415);
    expect(type.json().error.length).toBeLessThan(300);
  });
});

describe('a rename keeps every entry of session-names.json', () => {
  it('even one under the key "__proto__" (a names file edited or carried over by hand)', async () => {
    await writeFile(harness.namesFile, '{\n  "__proto__": "kept as written",\n  "s-1": "first name"\n}\n');
    const answer = await harness.app.inject({ method: 'PUT', url: '/api/sessions/codex-2/name', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"name":"second"}' });
    expect(answer.statusCode).toBe(200);
    const text = await readFile(harness.namesFile, 'utf8');
    expect(text).toContain('"__proto__": "kept as written"');
    expect(text).toContain('"s-1": "first name"');
    expect(text).toContain('"codex-2": "second"');
  });
});
