// Written by `npm run generate` from the folders of src/sources that hold a descriptor.ts: do not edit.

/** Every agent kind agentwatch knows, in alphabetical order: every list and legend shows them so. */
export const AGENT_KINDS = ['amp', 'claude', 'codex', 'copilot', 'crush', 'cursor', 'droid', 'gemini', 'goose', 'grok', 'kilo', 'kimi', 'opencode', 'pi', 'qwen'] as const;
