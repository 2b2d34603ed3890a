// A second process writing to a SQLite database, as the agent would: the test drives it over IPC
// so locks and file descriptors are really another process's.
import { Buffer } from 'node:buffer';
import Database from 'better-sqlite3';

const db = new Database(process.argv[2]);
if (process.argv[3] === 'wal') db.pragma('journal_mode = WAL');

process.on('message', ({ id, op, sql, params = [] }) => {
  try {
    if (op === 'exec') db.exec(sql);
    else if (op === 'run') db.prepare(sql).run(...params.map((p) => (p instanceof Uint8Array ? Buffer.from(p) : p)));
    else if (op === 'close') db.close();
    process.send({ id, ok: true });
  } catch (error) {
    process.send({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
  if (op === 'close') process.disconnect();
});
process.send({ id: 0, ok: true });
