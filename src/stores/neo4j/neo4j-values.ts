import neo4j, { isNode, isPath, isRelationship, isUnboundRelationship } from 'neo4j-driver';
import type { Row } from '../store.js';

/**
 * A query parameter as Neo4j should see it: JavaScript numbers are floats to the driver, so a
 * whole number goes as an integer (`LIMIT $n` refuses 10.0).
 */
export function toParameter(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return neo4j.int(value);
  if (Array.isArray(value)) return value.map(toParameter);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = toParameter(inner);
    return out;
  }
  return value;
}

/** Properties without chatgraph's own (`_owner`, `_seq`, `_stems`, `_hash`, `_deep`). */
function publicProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties))
    if (!key.startsWith('_')) out[key] = fromValue(value);
  return out;
}

/**
 * A result value as the embedded store gives it: a node as `{labels, ...properties}`, a
 * relationship as `{type, ...properties}`, a path as its nodes and relationships in turn,
 * temporal and spatial values as their text.
 */
export function fromValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (isNode(value)) {
    return { labels: [...value.labels], ...publicProperties(value.properties) };
  }
  if (isRelationship(value) || isUnboundRelationship(value)) {
    return { type: value.type, ...publicProperties(value.properties) };
  }
  if (isPath(value)) {
    const parts: unknown[] = [fromValue(value.start)];
    for (const segment of value.segments)
      parts.push(fromValue(segment.relationship), fromValue(segment.end));
    return parts;
  }
  if (neo4j.isInt(value)) return value.toNumber();
  if (Array.isArray(value)) return value.map(fromValue);
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromValue(v)]));
    // Dates, durations and points: their ISO text.
    return (value as { toString(): string }).toString();
  }
  return value;
}

/** A record as a row keyed by column name. */
export function fromRecord(record: { keys: PropertyKey[]; get(key: PropertyKey): unknown }): Row {
  const row: Row = {};
  for (const key of record.keys) row[String(key)] = fromValue(record.get(key));
  return row;
}
