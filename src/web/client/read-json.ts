/**
 * Small readers of the JSON the API answers, for the page (which loads no zod: zod 3.25 ships
 * no single-file ES module for its import map). Each reader checks a value against the shape the
 * server's schema declares (src/web/api-responses.ts) and gives back a copy with those fields
 * alone, or throws an {@link AnswerMisfit} naming the field; {@link readAnswer} adds the
 * endpoint. The readers of the answers themselves are in answers.ts.
 */

/** Reads `value` (found at `at`, a path such as `messages.3.id`) as a T, or throws. */
export type Reader<T> = (value: unknown, at: string) => T;

/** A field the answer lacks or holds the wrong kind of value in. */
export class AnswerMisfit extends Error {
  constructor(
    readonly at: string,
    readonly expected: string,
    value: unknown,
  ) {
    super(`${at || 'the answer'}: expected ${expected}, got ${kindOf(value)}`);
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * Reads an answer with `reader`; one that does not fit is an error naming the endpoint and the
 * field, shown where the page would have shown the answer.
 */
export function readAnswer<T>(endpoint: string, value: unknown, reader: Reader<T>): T {
  try {
    return reader(value, '');
  } catch (error) {
    if (!(error instanceof AnswerMisfit)) throw error;
    throw new Error(`${endpoint} answered what this page cannot read (${error.message})`, {
      cause: error,
    });
  }
}

/** Reads an answer's text: JSON, then `reader` (as {@link readAnswer}). */
export function readAnswerText<T>(endpoint: string, text: string, reader: Reader<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${endpoint} answered what this page cannot read (not JSON)`, {
      cause: error,
    });
  }
  return readAnswer(endpoint, value, reader);
}

const field = (at: string, key: string | number): string =>
  at ? `${at}.${String(key)}` : String(key);

export const text: Reader<string> = (value, at) => {
  if (typeof value === 'string') return value;
  throw new AnswerMisfit(at, 'text', value);
};

export const number: Reader<number> = (value, at) => {
  if (typeof value === 'number') return value;
  throw new AnswerMisfit(at, 'a number', value);
};

export const boolean: Reader<boolean> = (value, at) => {
  if (typeof value === 'boolean') return value;
  throw new AnswerMisfit(at, 'true or false', value);
};

/** A flag that is given only when set (`byWordsOnly: true`). */
export const yes: Reader<true> = (value, at) => {
  if (value === true) return value;
  throw new AnswerMisfit(at, 'true', value);
};

/** Any value, kept as it is (a Cypher row's cells, a node's properties: shown, not read). */
export const anything: Reader<unknown> = (value) => value;

/** One of a few strings. */
export function oneOf<const T extends string>(...values: readonly T[]): Reader<T> {
  return (value, at) => {
    const found = values.find((v) => v === value);
    if (found !== undefined) return found;
    throw new AnswerMisfit(at, values.join(' or '), value);
  };
}

export function nullable<T>(reader: Reader<T>): Reader<T | null> {
  return (value, at) => (value === null ? null : reader(value, at));
}

export function array<T>(reader: Reader<T>): Reader<T[]> {
  return (value, at) => {
    if (!Array.isArray(value)) throw new AnswerMisfit(at, 'a list', value);
    const items: unknown[] = value;
    return items.map((item, i) => reader(item, field(at, i)));
  };
}

type Fields = Partial<Record<string, unknown>>;

function fieldsOf(value: unknown, at: string): Fields {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw new AnswerMisfit(at, 'an object', value);
}

/** An object used as a map: every value read with `reader`. */
export function record<T>(reader: Reader<T>): Reader<Record<string, T>> {
  return (value, at) => {
    const out: Record<string, T> = {};
    for (const [key, item] of Object.entries(fieldsOf(value, at)))
      out[key] = reader(item, field(at, key));
    return out;
  };
}

/** A field an object may leave out (see {@link object}). */
export interface Optional<T> {
  readonly optional: Reader<T>;
}

export function optional<T>(reader: Reader<T>): Optional<T> {
  return { optional: reader };
}

type Shape = Record<string, Reader<unknown> | Optional<unknown>>;
type Required<S extends Shape> = {
  [K in keyof S as S[K] extends Reader<unknown> ? K : never]: S[K] extends Reader<infer T>
    ? T
    : never;
};
type Left<S extends Shape> = {
  [K in keyof S as S[K] extends Optional<unknown> ? K : never]?: S[K] extends Optional<infer T>
    ? T
    : never;
};
/** The object a shape reads: its fields, those marked {@link optional} maybe left out. */
export type Read<S extends Shape> = {
  [K in keyof (Required<S> & Left<S>)]: (Required<S> & Left<S>)[K];
};

/**
 * An object with the fields of `shape`, each read by its reader (a field marked optional may be
 * missing, or undefined). Fields the shape does not name are left out of the copy.
 */
export function object<S extends Shape>(shape: S): Reader<Read<S>> {
  // Every field of the shape is read by its own reader: the copy is the shape's type, which the
  // compiler cannot follow through the loop.
  return (value, at) => readFields(shape, value, at) as Read<S>;
}

/**
 * The readers of every field of T, none left out: a field T may leave out by an
 * {@link optional} reader.
 */
export type ShapeOf<T> = {
  [K in keyof T]-?: undefined extends T[K] ? Optional<Exclude<T[K], undefined>> : Reader<T[K]>;
};

/**
 * An object reader of a type declared elsewhere (a schema's `z.infer`): the compiler refuses a
 * shape that leaves out one of its fields or names one it lacks, so the reader cannot drift from
 * the one declaration. Read as {@link object}.
 */
export function objectOf<T>(shape: ShapeOf<T>): Reader<T> {
  // Every field of T has its reader in the shape (ShapeOf), each reading that field's type.
  return (value, at) => readFields(shape, value, at) as T;
}

function readFields(shape: Shape, value: unknown, at: string): Record<string, unknown> {
  const fields = fieldsOf(value, at);
  const out: Record<string, unknown> = {};
  for (const [key, reader] of Object.entries(shape)) {
    const item = fields[key];
    if (typeof reader === 'function') out[key] = reader(item, field(at, key));
    else if (item !== undefined) out[key] = reader.optional(item, field(at, key));
  }
  return out;
}
