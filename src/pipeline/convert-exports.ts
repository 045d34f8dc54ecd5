import { Bundle } from '../bundle/bundle.js';
import { bundleLayout } from '../folder/layout.js';
import type { ConvertOptions } from './convert-options.js';
import { importPipeline } from './import-pipeline.js';
import type { ImportReport } from './import-report.js';

/**
 * Reads exports (zips, folders, files) and converts every conversation to PAM into a bundle,
 * with no store: the import's composition (import-pipeline.ts) run to its report.
 */
export async function convertExports(
  inputs: readonly string[],
  options: ConvertOptions,
): Promise<ImportReport> {
  const { out, ...rest } = options;
  // A bundle of its own, plain: `convert` writes an export for others, not a data folder.
  for await (const event of importPipeline(inputs, {
    ...rest,
    bundle: new Bundle(bundleLayout(out)),
  }))
    if (event.kind === 'done') return event.report;
  throw new Error('the import ended without its report: this is a bug');
}
