import path from 'node:path';
import { AGENT_LABEL } from '../../sources/agents.js';
import type { WaitingAlert } from './debounce.js';

/** What a desktop notification shows. */
export interface DesktopNotification {
  readonly title: string;
  readonly body: string;
}

/** "45 s", "2 min", "1 min 30 s", "1 h 5 min": short enough for a notification bubble. */
export const formatWait = (ms: number): string => {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
};

/** The project is the last segment of the working directory (the session id when there is none). */
export const projectName = (cwd: string, sessionId: string): string => path.basename(cwd.replace(/[\\/]+$/, '')) || sessionId;

/** Project name, agent and how long: what a user needs to decide whether to switch windows. */
export const formatNotification = (alert: WaitingAlert): DesktopNotification => ({
  title: `${projectName(alert.cwd, alert.sessionId)} is waiting for you`,
  body: `${AGENT_LABEL[alert.agent]} has been waiting for input for ${formatWait(alert.waitedMs)}.`,
});
