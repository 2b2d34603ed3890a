/**
 * A second process for the concurrency tests: performs N read-modify-writes through the real
 * config module. argv: <mode: config|names> <label> <count>
 */
import { updateConfig } from '../../../src/config/load.js';
import { setSessionName } from '../../../src/config/session-names.js';

const [mode, label, countText] = process.argv.slice(2);
const count = Number(countText);

for (let i = 0; i < count; i++) {
  if (mode === 'config') {
    await updateConfig(process.env, (stored) => {
      const log = Array.isArray(stored.test_log) ? (stored.test_log as string[]) : [];
      return { ...stored, test_log: [...log, `${label}-${i}`] };
    });
  } else {
    await setSessionName(process.env, `${label}-${i}`, `name ${label} ${i}`);
  }
}
