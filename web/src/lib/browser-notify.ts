/** The browser side of notifications: the saved opt-in and the Notification API. */

const KEY = 'agentwatch.browserNotifications';

export const notificationsSupported = (): boolean => typeof Notification !== 'undefined';

export const browserNotificationsWanted = (): boolean => {
  try {
    return localStorage.getItem(KEY) === 'on' && notificationsSupported() && Notification.permission === 'granted';
  } catch {
    return false;
  }
};

/** Turns them on (asking the browser's permission first) or off; resolves to whether they are on, or rejects saying why not. */
export const setBrowserNotifications = async (on: boolean): Promise<boolean> => {
  if (!on) {
    localStorage.removeItem(KEY);
    return false;
  }
  if (!notificationsSupported()) throw new Error('this browser has no notifications');
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('the browser refused: allow notifications for this page in its site settings');
  localStorage.setItem(KEY, 'on');
  return true;
};

/** Someone is looking at the dashboard: a notification would only repeat what is on screen. */
export const pageIsWatched = (): boolean => document.visibilityState === 'visible' && document.hasFocus();
