/**
 * The shortest prefix of each id, 8 characters at least, that no other id in the list shares:
 * what a person types back (`thread 3f2a9c1b`) without the whole UUID.
 */
export function shortIds(ids: readonly string[]): Map<string, string> {
  const short = new Map<string, string>();
  for (const id of ids) {
    let length = Math.min(8, id.length);
    while (
      length < id.length &&
      ids.some((other) => other !== id && other.startsWith(id.slice(0, length)))
    )
      length++;
    short.set(id, id.slice(0, length));
  }
  return short;
}

/** A message node id's own part: what follows `{conversation id}:` (the whole id if none). */
export function messagePart(id: string): string {
  return id.slice(id.indexOf(':') + 1);
}

/**
 * Short ids of messages: the shortest unique prefix (8 characters at least) of each one's own
 * part, which `thread <message-id>` and `remember --message` take back.
 */
export function shortMessageIds(ids: readonly string[]): Map<string, string> {
  const parts = shortIds(ids.map(messagePart));
  return new Map(ids.map((id) => [id, parts.get(messagePart(id)) ?? messagePart(id)]));
}
