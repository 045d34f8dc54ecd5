/** A usage problem: one sentence, exit code 2. */
export class UsageError extends Error {}
