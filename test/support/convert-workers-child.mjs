// Imports exports on the compiled code with a set number of conversion workers (0: inline) into
// a store that records what reaches it (each conversation's graph batch and hash, each file
// done, in order), and writes that record and the report as JSON:
//   node test/support/convert-workers-child.mjs <workers> <out> <record.json> <export>...
import { writeFileSync } from 'node:fs';
import { Bundle } from '../../dist/bundle/bundle.js';
import { bundleLayout } from '../../dist/folder/layout.js';
import { importPipeline } from '../../dist/pipeline/import-pipeline.js';

const [workers, out, record, ...inputs] = process.argv.slice(2);
const stored = [];
const store = {
  deep: true,
  attachmentText: () => undefined,
  writer: {
    write: (batch) => {
      stored.push({ batch });
    },
    flush: async () => undefined,
    end: async () => ({ written: stored.length, unchanged: 0 }),
  },
  store: {
    recordImport: async (file) => {
      stored.push({ file });
    },
    recordFingerprint: async () => undefined,
    dropStaleImports: async () => undefined,
  },
};
let report;
const options = {
  bundle: new Bundle(bundleLayout(out)),
  workers: Number(workers),
  importedAt: new Date('2026-01-01T00:00:00Z'),
};
for await (const event of importPipeline(inputs, options, store)) {
  if (event.kind === 'stored') stored.push({ id: event.written.id, file: undefined });
  if (event.kind === 'done') report = event.report;
}
// The report less the bundle's path, which differs between the runs compared.
writeFileSync(record, JSON.stringify({ stored, report: { ...report, bundle: undefined } }));
