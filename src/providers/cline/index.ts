import { taskProvider } from '../cline-family/task-provider.js';

/** Cline's tasks (`saoudrizwan.claude-dev` in VS Code's global storage, or `~/.cline/data/tasks`). */
export const cline = taskProvider({
  name: 'cline',
  label: 'Cline',
  product: 'Cline',
  extensionId: 'saoudrizwan.claude-dev',
  locations: [
    {
      platforms: ['linux', 'darwin', 'win32'],
      path: '~/.cline/data/tasks',
      env: { name: 'CLINE_DIR', path: 'data/tasks' },
    },
  ],
  homeMark: '/.cline/data/tasks/',
  byDefault: true,
});
