import { taskProvider } from '../cline-family/task-provider.js';

/** Kilo Code's tasks (`kilocode.kilo-code` in VS Code's global storage), before its 2026 rebuild. */
export const kiloCode = taskProvider({
  name: 'kilo-code',
  label: 'Kilo Code',
  product: 'Kilo Code',
  extensionId: 'kilocode.kilo-code',
});
