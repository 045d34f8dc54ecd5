import type { Diagnostic } from '../model/diagnostic.js';
import type { Entry } from '../read/entry.js';

/** A reader's problem (bad JSON, a cut-off record) as a diagnostic naming its file and place. */
export function readDiagnostic(
  item: { code: string; message: string; offset: number; index?: number; record?: string },
  entry: Entry,
): Diagnostic {
  const diagnostic: Diagnostic = {
    level: 'error',
    code: item.code,
    message: item.message,
    file: entry.displayPath,
    offset: item.offset,
  };
  if (item.record !== undefined) diagnostic.record = item.record;
  else if (item.index !== undefined) diagnostic.record = `#${item.index}`;
  return diagnostic;
}
