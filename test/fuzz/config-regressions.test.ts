import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig, updateConfig } from '../../src/config/load.js';
import { configPath } from '../../src/config/paths.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** What the config fuzz test (config-mutations.test.ts) found, pinned. */

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

const PASSPHRASE = 'correct horse battery staple';

const writeConfig = async (text: string): Promise<string> => {
  const file = configPath(temp.env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, text, { mode: 0o600 });
  return file;
};

const refusal = async (write: boolean): Promise<ConfigError> => {
  // Not the loaded config itself: a deep one would not survive the report of a failed expectation.
  const error = await loadConfig(temp.env, { write }).then(() => 'loaded', (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
};

describe('a config file that is not JSON: one line naming the place, never the file quoted', () => {
  it('NaN next to the passphrase: the line and column of NaN, and not a word of the passphrase', async () => {
    const text = `{\n  "api_passphrase": "${PASSPHRASE}", "window_minutes": NaN\n}\n`;
    const file = await writeConfig(text);
    const error = await refusal(true);
    expect(error.message).toBe(`${file}:2:71: not valid JSON (Unexpected character "N" (NaN and Infinity are not JSON numbers))`);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('a comment, a stray word, a single-quoted string: each placed where it is', async () => {
    const cases = [
      ['{\n  "window_minutes": 30,\n  // longer\n  "editor": "vim"\n}\n', '3:3: not valid JSON (Expected double-quoted property name (JSON has no comments))'],
      ['{\n  "editor": vim\n}\n', '2:13: not valid JSON (Unexpected character "v")'],
      ['{\n  "editor": # vim\n  "vim"\n}\n', '2:13: not valid JSON (Unexpected character "#" (JSON has no comments))'],
      // Every mistake is placed, not only the first: both single-quoted strings.
      ["{\n  'editor': 'vim'\n}\n", "2:3: not valid JSON (Expected property name or '}' (JSON strings take double quotes)); also 2:13 (JSON strings take double quotes)"],
    ] as const;
    for (const [text, expected] of cases) {
      const file = await writeConfig(text);
      expect((await refusal(false)).message).toBe(`${file}:${expected}`);
    }
  });

  it('after a byte-order mark the column is counted as an editor shows it', async () => {
    const file = await writeConfig('\ufeff{"editor": vim}');
    expect((await refusal(false)).message).toBe(`${file}:1:12: not valid JSON (Unexpected character "v")`);
  });
});

describe('a config file nested thousands of levels deep', () => {
  it('is refused by name (not a stack overflow, not rewritten 3000 times longer), and left as it is', async () => {
    for (const depth of [3_000, 100_000]) {
      // No `window_minutes`: a load with write: true would back-fill the file.
      const text = `{"api_passphrase": "${PASSPHRASE}", "my_notes": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const file = await writeConfig(text);
      const error = await refusal(true);
      expect(error.code).toBe('E_CONFIG_INVALID');
      expect(error.message).toBe(`${file}: invalid configuration: my_notes[0][0]: nested more than 64 levels deep`);
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });
});

describe('a number JSON cannot write back as it is written', () => {
  const text = `{\n  "api_passphrase": "${PASSPHRASE}",\n  "my_id": 12345678901234567890\n}\n`;

  it('a back-fill is not written (the number would become 12345678901234567000): loads with a warning naming it', async () => {
    const file = await writeConfig(text);
    const loaded = await loadConfig(temp.env, { write: true });
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(loaded.warnings.join('\n')).toContain('line 3, column 12: the number 12345678901234567890 would be saved as 12345678901234567000');
    expect(loaded.config.window_minutes).toBe(30);
  });

  it('a change (Settings, passphrase) is refused naming it, and the file is left as it is', async () => {
    const file = await writeConfig(text.replace('12345678901234567890', '1e999'));
    const error = await updateConfig(temp.env, (stored) => ({ ...stored, window_minutes: 5 })).catch((caught: unknown) => caught as ConfigError);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `${file}: cannot save the change: line 3, column 12: the number 1e999 would be saved as null, beyond what a JSON number keeps exactly; write it as a string to keep it`,
    );
    expect(await readFile(file, 'utf8')).toBe(text.replace('12345678901234567890', '1e999'));
  });

  it('the same number in another spelling (1.0, 1E3, -0) is no loss: the back-fill is written', async () => {
    const file = await writeConfig(`{"api_passphrase": "${PASSPHRASE}", "my_numbers": [1.0, 1E3, -0, 0.1, 2.50]}`);
    await loadConfig(temp.env, { write: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ my_numbers: [1, 1000, 0, 0.1, 2.5], window_minutes: 30 });
  });
});
