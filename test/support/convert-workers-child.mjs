// Converts exports on the compiled code with a set number of conversion workers (0: inline), a
// sink recording what each conversation hands on, and writes that record and the report as JSON:
//   node test/support/convert-workers-child.mjs <workers> <out> <record.json> <export>...
import { writeFileSync } from 'node:fs';
import { convertExports } from '../../dist/index.js';

const [workers, out, record, ...inputs] = process.argv.slice(2);
const sunk = [];
const report = await convertExports(inputs, {
  out,
  workers: Number(workers),
  importedAt: new Date('2026-01-01T00:00:00Z'),
  graph: { deep: true },
  sinks: [
    {
      write: async (context) => {
        sunk.push({
          contentHash: context.contentHash,
          file: context.file,
          batch: context.batch,
          id: context.conversation().id,
        });
      },
    },
  ],
});
// The report less the bundle's path, which differs between the runs compared.
writeFileSync(record, JSON.stringify({ sunk, report: { ...report, bundle: undefined } }));
