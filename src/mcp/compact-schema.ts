// A tool's JSON Schema made small for an agent's context (issue 26 §8): tools/list is read
// before an agent does anything, so every byte of it is paid in every session.

/** A JSON value, as a schema is made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const DEFS = '$defs';

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function map(value: Json, visit: (node: Json) => Json): Json {
  if (Array.isArray(value)) return value.map(visit);
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
  return value;
}

function isEmpty(value: Json): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}

function pointer(root: Json, ref: string): Json | undefined {
  let at: Json | undefined = root;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    at = Array.isArray(at) ? at[Number(key)] : isObject(at) ? at[key] : undefined;
  }
  return at;
}

/**
 * Every `$ref` to a path of the document replaced by what it points at: the converter refers
 * a repeated zod schema to its first place ("#/properties/hits/items/properties/title"), a ref
 * longer than the `{"type":"string"}` it names, and a path no reader can follow at a glance.
 */
export function inlineRefs(root: Json): Json {
  const resolve = (node: Json, depth: number): Json => {
    if (depth > 64) return node;
    if (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      const { $ref, ...siblings } = node;
      const target = pointer(root, $ref);
      if (target === undefined) return node;
      const resolved = resolve(target, depth + 1);
      return isObject(resolved) ? { ...resolved, ...siblings } : resolved;
    }
    return map(node, (child) => resolve(child, depth + 1));
  };
  return resolve(root, 0);
}

/**
 * What a reader does not need: `$schema` (MCP's default dialect reads these schemas alike) and
 * `additionalProperties: false` (the SDK strips unknown arguments rather than refusing them, and
 * the server parses every answer with its zod schema, so nothing else is ever in one).
 */
export function dropNoise(schema: Json): Json {
  const visit = (node: Json): Json => {
    if (!isObject(node)) return map(node, visit);
    const kept = Object.entries(node).filter(
      ([key, value]) =>
        key !== '$schema' && !(key === 'additionalProperties' && (!value || isEmpty(value))),
    );
    return typeUnion(Object.fromEntries(kept.map(([key, value]) => [key, visit(value)])));
  };
  return visit(schema);
}

// `{"anyOf":[{"type":"integer"},{"type":"null"}]}` says what `{"type":["integer","null"]}` does.
function typeUnion(node: JsonObject): JsonObject {
  const { anyOf, ...rest } = node;
  if (!Array.isArray(anyOf) || rest.type !== undefined) return node;
  const types = anyOf.map((branch) =>
    isObject(branch) && Object.keys(branch).length === 1 && typeof branch.type === 'string'
      ? branch.type
      : undefined,
  );
  if (types.some((type) => type === undefined)) return node;
  return { type: types as string[], ...rest };
}

// A shape's identity, its own description aside (one place may describe it, another not).
function shapeKey(node: JsonObject): string {
  const { description: _description, ...shape } = node;
  return JSON.stringify(shape);
}

function objectShapes(root: Json, into: Map<string, JsonObject[]>): void {
  if (Array.isArray(root)) for (const item of root) objectShapes(item, into);
  if (!isObject(root)) return;
  if (root.type === 'object' && isObject(root.properties)) {
    const key = shapeKey(root);
    into.set(key, [...(into.get(key) ?? []), root]);
  }
  for (const value of Object.values(root)) objectShapes(value, into);
}

function refBytes(name: string): number {
  return `{"$ref":"#/${DEFS}/${name}"}`.length;
}

/**
 * Object shapes that repeat inside one schema described once, under `$defs`, and referred to
 * where they recur. `names` names the shapes chatgraph knows (by their key); others get
 * `shape1`, `shape2`… A shape is hoisted only when that makes the schema smaller.
 */
export function shareShapes(schema: Json, names: ReadonlyMap<string, string> = new Map()): Json {
  if (!isObject(schema)) return schema;
  let root: JsonObject = schema;
  let fallback = 0;
  for (let round = 0; round < 8; round += 1) {
    const shapes = new Map<string, JsonObject[]>();
    objectShapes(root, shapes);
    const defs: JsonObject = isObject(root[DEFS]) ? { ...root[DEFS] } : {};
    const chosen = new Map<string, string>();
    for (const [key, places] of shapes) {
      const name = names.get(key) ?? `shape${String(fallback + 1)}`;
      const saved = (places.length - 1) * key.length - places.length * refBytes(name) - 8;
      if (places.length < 2 || saved <= 0 || defs[name] !== undefined) continue;
      if (!names.has(key)) fallback += 1;
      chosen.set(key, name);
    }
    if (chosen.size === 0) break;
    const replace = (node: Json): Json => {
      if (isObject(node) && node.type === 'object' && isObject(node.properties)) {
        const name = chosen.get(shapeKey(node));
        if (name !== undefined) {
          const { description, ...shape } = node;
          defs[name] ??= shape;
          return description === undefined
            ? { $ref: `#/${DEFS}/${name}` }
            : { $ref: `#/${DEFS}/${name}`, description };
        }
      }
      return map(node, replace);
    };
    const { [DEFS]: _old, ...body } = root;
    const replaced = replace(body) as JsonObject;
    // Shapes inside a def are shared too; walking a def may add one more def, walked in turn.
    const walked: JsonObject = {};
    for (let left = Object.keys(defs); left.length > 0;) {
      for (const name of left) walked[name] = map(defs[name] ?? null, replace);
      left = Object.keys(defs).filter((name) => !(name in walked));
    }
    root = { ...replaced, [DEFS]: walked };
  }
  return root;
}

/** How tools/list gives the shapes tools share: by a name, with the fields it names. */
export interface Shapes {
  /** A shape's abridged form, by the key of its full form. */
  abridged: ReadonlyMap<string, Json>;
  /** A shape's name, by the key of its abridged form. */
  names: ReadonlyMap<string, string>;
}

/**
 * Every shape `abridged` knows replaced by its abridged form (the fields an agent chains on;
 * the others still come, as an object schema allows), outer shapes first.
 */
export function abridge(schema: Json, abridged: ReadonlyMap<string, Json>): Json {
  const visit = (node: Json): Json => {
    if (isObject(node) && node.type === 'object') {
      const short = abridged.get(shapeKey(node));
      if (isObject(short)) {
        const described = node.description === undefined ? {} : { description: node.description };
        return map({ ...short, ...described }, visit);
      }
    }
    return map(node, visit);
  };
  return visit(schema);
}

/** A tool's input or output schema, as small as it can be. */
export function compactSchema(schema: Json, output: boolean, shapes?: Shapes): Json {
  const plain = dropNoise(inlineRefs(schema));
  if (!output) return plain;
  return withoutRequired(shareShapes(abridge(plain, shapes?.abridged ?? new Map()), shapes?.names));
}

/**
 * An output schema without its `required` lists: they repeat every field's name (1.6 KB of
 * tools/list once a usage tool came), an agent reads what an answer holds, and the server
 * checks each answer against its whole zod schema before sending it anyway.
 */
export function withoutRequired(schema: Json): Json {
  const visit = (node: Json): Json =>
    isObject(node)
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([key, value]) => !(key === 'required' && Array.isArray(value)))
            .map(([key, value]) => [key, visit(value)]),
        )
      : map(node, visit);
  return visit(schema);
}

/** The key `shareShapes` knows a shape by, for naming it. */
export function shapeName(schema: Json): string {
  return isObject(schema) ? shapeKey(schema) : JSON.stringify(schema);
}
