/**
 * What a session is called, one rule for every interface (the TUI's list and detail panel, the
 * dashboard's cards, detail panel and panel view, `agentwatch sessions`, and the `display_name`
 * of the session JSON): your rename, else the agent's own title (lazyagent's order), else your
 * latest prompt (what an untitled session is about, and what tells two sessions of one folder
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

/** Characters of the id shown when nothing else names a session. */
const SHORT_ID = 8;

/**
 * Markdown made plain, on one line: headings, bold, inline code, code fences and links keep
 * only their text, and runs of white space become one space.
 */
export const plainLine = (text: string): string =>
  text
    .replace(/^\s*```[^\n]*$/gm, '')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/__(.+?)__/g, '$1')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/!?\[([^\]\n]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/g, (_, label: string, url: string) => label || url)
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Lines Claude Code writes as the user's but that the user did not type: a local command's
 * output, `!` bash mode's input and output, and the caveat put before them.
 */
const HARNESS_ECHOES = ['<local-command-stdout>', '<local-command-stderr>', '<local-command-caveat>', '<bash-input>', '<bash-stdout>', '<bash-stderr>', 'Caveat: The messages below were generated'];

const tagText = (text: string, tag: string): string | undefined => {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return match?.[1]?.trim();
};

/**
 * A user message as a name: Claude Code's slash-command markup
 * (`<command-name>/init</command-name>` with `<command-message>` and `<command-args>`) becomes
 * what the user typed (`/init args`); a harness echo is no name (""); anything else is made plain.
 */
export const promptName = (text: string): string => {
  const start = text.trimStart();
  if (HARNESS_ECHOES.some((echo) => start.startsWith(echo))) return '';
  const command = tagText(text, 'command-name');
  if (command !== undefined) {
    const typed = command.startsWith('/') ? command : `/${command}`;
    const args = tagText(text, 'command-args') ?? '';
    return plainLine(args === '' ? typed : `${typed} ${args}`);
  }
  return plainLine(text);
};

/** The user's latest message that names the session, on one line ("" without one). */
export const lastPrompt = (messages: readonly { readonly role: string; readonly text: string }[]): string => {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const name = promptName(message.text);
    if (name !== '') return name;
  }
  return '';
};

/** The folder's name, else the id shortened: what names a session nothing else names. */
const fallbackName = (s: Pick<NameFields, 'short_name' | 'session_id'>): string => s.short_name || s.session_id.slice(0, SHORT_ID);

/** The name and where it came from. */
export const sessionName = (s: NameFields, prompt: string): { readonly text: string; readonly source: NameSource } => {
  if (s.custom_name) return { text: s.custom_name, source: 'custom' };
  if (s.agent_name) return { text: plainLine(s.agent_name), source: 'title' };
  if (prompt) return { text: prompt, source: 'prompt' };
  return { text: fallbackName(s), source: 'project' };
};

/** A summary's `display_name` and where it came from (the interfaces style a prompt apart). */
export const displayNameOf = (s: NameFields & { readonly display_name: string }): { readonly text: string; readonly source: NameSource } => {
  if (s.custom_name) return { text: s.display_name, source: 'custom' };
  if (s.agent_name) return { text: s.display_name, source: 'title' };
  return { text: s.display_name, source: s.display_name === fallbackName(s) ? 'project' : 'prompt' };
};
