/**
 * Writes src/core/agent-kinds.ts, the list of agent kinds the config schema and the types read,
 * from the agents' folders: a folder of src/sources with a descriptor.ts is an agent.
 * `npm run generate` after adding one (a test fails until then).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { agentKindsFile, agentKindsModule, agentKindsOnDisk } from './lib/agent-kinds.js';

const kinds = await agentKindsOnDisk();
const before = await readFile(agentKindsFile, 'utf8').catch(() => '');
const after = agentKindsModule(kinds);
if (after !== before) await writeFile(agentKindsFile, after);
console.log(after === before ? 'src/core/agent-kinds.ts: up to date' : `src/core/agent-kinds.ts: written (${kinds.join(', ')})`);
