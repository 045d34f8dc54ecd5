import { readFileSync } from 'node:fs';
import { QueryError } from '../stores/store.js';
import { PriceTableSchema, type PriceTable } from './prices.js';

/**
 * A price table from a file (`prices.json` in the config folder): undefined when there is no
 * such file; a file that is not one is an error naming it and what is wrong, never skipped.
 */
export function readPriceFile(path: string): PriceTable | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new QueryError(`${path}: ${String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new QueryError(`${path}: not JSON (${(error as Error).message})`);
  }
  const parsed = PriceTableSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    throw new QueryError(
      `${path}: not a price table${where ? ` at ${where}` : ''}: ${issue?.message ?? 'invalid'} (want {"date": "YYYY-MM-DD", "source": "…", "models": {"name": {"input", "output", "cache_read", "cache_write"} per million tokens}})`,
    );
  }
  return parsed.data;
}
