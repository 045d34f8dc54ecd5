/**
 * Characters of a string property (a message's or a document's `content`) that Cypher sees on
 * the embedded store: a prefix, as the seed's own Message.content is. Grafeo refuses any value
 * over 16 MiB, and one such message made every query that read messages fail; a million
 * characters are at most 4 MB of UTF-8. The whole text stays in the store (thread, search) and
 * the bundle.
 */
export const CYPHER_TEXT_CHARACTERS = 1_000_000;
