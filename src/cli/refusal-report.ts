import { NotAnExportError } from '../api/sources.js';
import type { CliIo } from './cli-io.js';

/**
 * Runs an import or convert; under `--json` a refusal (nothing usable: exit 2) still prints the
 * report, with the refusal among its problems, so a script reading stdout always gets one.
 */
export async function withRefusalReport<T>(
  json: boolean | undefined,
  io: CliIo,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (json === true && error instanceof NotAnExportError && error.report)
      io.out(JSON.stringify(error.report, null, 2));
    throw error;
  }
}
