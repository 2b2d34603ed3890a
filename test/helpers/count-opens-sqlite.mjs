// better-sqlite3 for count-opens.mjs: every database opened (other than agentwatch's own) is recorded.
import Database from 'better-sqlite3';

function CountingDatabase(file, ...rest) {
  if (typeof file === 'string' && file !== ':memory:' && !file.includes('/agentwatch/')) globalThis.agentwatchTestOpened?.push(file);
  return new Database(file, ...rest);
}
CountingDatabase.prototype = Database.prototype;
Object.setPrototypeOf(CountingDatabase, Database);

export default CountingDatabase;
