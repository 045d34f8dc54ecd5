/** A usage problem: one sentence (and, for a mistyped option, the command's usage line), exit code 2. */
export class UsageError extends Error {
  /** The usage line of the command it is about (`chatgraph search [options] <terms...>`). */
  readonly usage: string | undefined;

  constructor(message: string, usage?: string) {
    super(message);
    this.usage = usage;
  }
}
