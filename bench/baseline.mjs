/**
 * The baseline: the least a tool that reads the agents' data must do.
 * - Files (`<corpus>/files.txt`: JSONL transcripts and the JSON documents of amp, grok and kimi):
 *   read every file and JSON.parse every line (a one-line JSON document is one line).
 * - SQLite databases (`<corpus>/dbs.txt`, optional: opencode, kilo, Cursor): open read-only, read
 *   every row of every table, and JSON.parse every text value that is a JSON object.
 * Prints the line, row and error counts.
 */
import { Buffer } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';

const list = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
let lines = 0;
let bad = 0;
for (const file of list) {
  const text = readFileSync(file, 'utf8');
  for (const line of text.split('\n')) {
    if (line === '') continue;
    lines += 1;
    try {
      JSON.parse(line);
    } catch {
      bad += 1;
    }
  }
}

let rows = 0;
const dbList = process.argv[3] && existsSync(process.argv[3]) ? readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean) : [];
if (dbList.length > 0) {
  // Loaded only when there are databases: the files-only baseline stays a plain Node script.
  const { default: Database } = await import('better-sqlite3');
  for (const file of dbList) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all();
    for (const table of tables) {
      for (const row of db.prepare(`SELECT * FROM "${table}"`).iterate()) {
        rows += 1;
        for (const value of Object.values(row)) {
          const text = Buffer.isBuffer(value) ? value.toString('utf8') : value;
          if (typeof text === 'string' && text.startsWith('{')) JSON.parse(text);
        }
      }
    }
    db.close();
  }
}
process.stdout.write(`${JSON.stringify({ files: list.length, lines, bad, dbs: dbList.length, rows })}\n`);
