/**
 * What a session is called, one rule for the TUI's list and detail panel and the dashboard's card,
 * detail panel and panel view: your rename, else the agent's own title (lazyagent's order), else
 * your latest prompt (what an untitled session is about, and what tells two sessions of one folder
 * apart), else the project folder, else the id. Pure, no Node imports: the dashboard bundles it.
 */

/** Where a session's name came from. */
export type NameSource = 'custom' | 'title' | 'prompt' | 'project';

/** The fields of a session's summary (or detail) the name is made from. */
export interface NameFields {
  readonly custom_name: string;
  readonly agent_name: string;
  readonly short_name: string;
  readonly session_id: string;
}

/** The user's latest message, on one line ("" without one). */
export const lastPrompt = (messages: readonly { readonly role: string; readonly text: string }[]): string => {
  const message = messages.findLast((m) => m.role === 'user');
  return message ? message.text.replace(/\s+/g, ' ').trim() : '';
};

/** The name and where it came from; `shortId` shortens the id when nothing else names the session. */
export const sessionName = (s: NameFields, prompt: string, shortId: (id: string) => string = (id) => id): { readonly text: string; readonly source: NameSource } => {
  if (s.custom_name) return { text: s.custom_name, source: 'custom' };
  if (s.agent_name) return { text: s.agent_name, source: 'title' };
  if (prompt) return { text: prompt, source: 'prompt' };
  return { text: s.short_name || shortId(s.session_id), source: 'project' };
};
