/** The bundle's JSON form: two-space indented (diffable), with a final newline. */
export function serialize(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
