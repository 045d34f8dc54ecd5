/** The input holds no export chatgraph can read; the message says what was expected. */
export class NotAnExportError extends Error {
  override readonly name = 'NotAnExportError';
}
