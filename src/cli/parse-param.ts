/** Reads `--param name=value`: the value as JSON when it parses (numbers, booleans, lists), else as text. */
export function parseParam(text: string, into: Record<string, unknown>): Record<string, unknown> {
  const at = text.indexOf('=');
  if (at <= 0) throw new Error(`--param takes name=value, not "${text}"`);
  const name = text.slice(0, at);
  const raw = text.slice(at + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: a plain string, as the user typed it.
    value = raw;
  }
  return { ...into, [name]: value };
}
