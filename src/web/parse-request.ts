import type { z } from 'zod';
import { ApiError } from './api-error.js';

/** A refused request in one line that names the parameter (unless the message already does). */
function refusal(error: z.ZodError, what: string): ApiError {
  const issue = error.issues[0];
  const name = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'bad request';
  if (name === '') return new ApiError(400, issue?.code === 'invalid_type' ? what : message);
  return new ApiError(400, message.startsWith(`${name} `) ? message : `${name}: ${message}`);
}

/** A query string parsed by its route's schema: each parameter's first value, as `get` gives it. */
export function parseQuery<S extends z.ZodTypeAny>(
  schema: S,
  params: URLSearchParams,
): z.output<S> {
  const first = new Map<string, string>();
  for (const [name, value] of params) if (!first.has(name)) first.set(name, value);
  // fromEntries: a parameter named __proto__ becomes a field, not the object's prototype.
  const result = schema.safeParse(Object.fromEntries(first));
  if (!result.success) throw refusal(result.error, 'the query string is not valid');
  return result.data as z.output<S>;
}

/** A JSON body parsed by its route's schema. */
export function parseBody<S extends z.ZodTypeAny>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw refusal(result.error, 'the request body must be a JSON object');
  return result.data as z.output<S>;
}
