import { taskProvider } from '../cline-family/task-provider.js';

/** Roo Code's tasks (`rooveterinaryinc.roo-cline` in VS Code's global storage). */
export const rooCode = taskProvider({
  name: 'roo-code',
  label: 'Roo Code',
  product: 'Roo Code',
  extensionId: 'rooveterinaryinc.roo-cline',
  versionTwo: true,
});
