import type { Provider } from '../provider.js';
import { detectClaudeCode } from './detect.js';
import { SessionBuilder } from './session-builder.js';
import { toClaudeCodeConversation } from './to-conversation.js';

/** Claude Code session logs (`~/.claude/projects`). */
export const claudeCode: Provider = {
  name: 'claude-code',
  source: 'claude-code',
  label: 'Claude Code',
  product: 'Claude Code',
  howToExport:
    'nothing to export; chatgraph import with no path (or --agents) reads ~/.claude/projects (or CLAUDE_CONFIG_DIR); or give a project folder or a session .jsonl',
  fileTools: {
    read: ['Read', 'Grep', 'Glob', 'LS'],
    modify: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'],
  },
  agent: {
    writes: 'append',
    locations: [
      {
        platforms: ['linux', 'darwin', 'win32'],
        path: '~/.claude/projects',
        env: { name: 'CLAUDE_CONFIG_DIR', path: 'projects' },
      },
      { platforms: ['linux'], path: '$XDG_CONFIG_HOME/claude/projects' },
    ],
    grow: (variant, context) => new SessionBuilder(variant, context),
  },
  detect: detectClaudeCode,
  toConversation: toClaudeCodeConversation,
};
