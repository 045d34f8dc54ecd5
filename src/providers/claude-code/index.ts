import type { Provider } from '../provider.js';
import { detectClaudeCode } from './detect.js';
import { toClaudeCodeConversation } from './to-conversation.js';

/** Claude Code session logs (`~/.claude/projects`). */
export const claudeCode: Provider = {
  name: 'claude-code',
  source: 'claude-code',
  label: 'Claude Code',
  product: 'Claude Code',
  howToExport:
    'nothing to export; chatgraph import with no path reads ~/.claude/projects (or CLAUDE_CONFIG_DIR)',
  fileTools: {
    read: ['Read', 'Grep', 'Glob', 'LS'],
    modify: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'],
  },
  detect: detectClaudeCode,
  toConversation: toClaudeCodeConversation,
};
