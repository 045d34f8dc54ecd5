/**
 * Where a conversation lives on its platform, built from the id its export gives. An id we made
 * (`anonymous-…`, for a record without one) or one that is not a plain token gives no address,
 * so a link never points at someone else's conversation or at a made-up page.
 */
export function addressOf(
  base: string,
  id: string,
  shape = /^[A-Za-z0-9_-]{6,128}$/,
): string | undefined {
  if (id.startsWith('anonymous-') || !shape.test(id)) return undefined;
  return `${base}${id}`;
}

/**
 * A URL kept from the export itself (`raw_metadata.platform_url`), when it is an https one on
 * one of the platform's own hosts (`hosts`, or a subdomain of one): a bundle may carry any
 * address there, and "open on the platform" must lead to the platform. Given as the URL
 * parser writes it (no line breaks, spaces or angle brackets left).
 */
export function keptAddress(
  raw: Readonly<Record<string, unknown>>,
  hosts: readonly string[],
): string | undefined {
  const url = raw.platform_url;
  if (typeof url !== 'string') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '')
    return undefined;
  const host = parsed.hostname.toLowerCase();
  return hosts.some((h) => host === h || host.endsWith(`.${h}`)) ? parsed.href : undefined;
}
