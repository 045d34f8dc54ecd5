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

/** A URL kept from the export itself (`raw_metadata.platform_url`), when it is an https one. */
export function keptAddress(raw: Readonly<Record<string, unknown>>): string | undefined {
  const url = raw.platform_url;
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
