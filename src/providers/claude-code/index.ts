import type { Provider } from '../provider.js';
import { detectClaudeCode } from './detect.js';
import { toClaudeCodeConversation } from './to-conversation.js';

/** Claude Code session logs (`~/.claude/projects`). */
export const claudeCode: Provider = {
  name: 'claude-code',
  source: 'claude-code',
  label: 'Claude Code',
  fileTools: {
    read: ['Read', 'Grep', 'Glob', 'LS'],
    modify: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'],
  },
  detect: detectClaudeCode,
  toConversation: toClaudeCodeConversation,
};
