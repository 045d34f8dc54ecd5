import { parentPort } from 'node:worker_threads';
import { convertRecord, type RecordTask } from './convert-record.js';
import type { LibraryFile } from '../providers/provider.js';

/** Messages a conversion worker takes. */
export type WorkerRequest =
  | { type: 'assets'; key: string; pairs: [string, string][] }
  | { type: 'library'; key: string; pairs: [string, LibraryFile[]][] }
  | { type: 'task'; seq: number; task: RecordTask };

const assets = new Map<string, Map<string, string>>();
const library = new Map<string, Map<string, LibraryFile[]>>();

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.type === 'assets') {
    assets.set(request.key, new Map(request.pairs));
    return;
  }
  if (request.type === 'library') {
    library.set(request.key, new Map(request.pairs));
    return;
  }
  try {
    const result = convertRecord(
      request.task,
      assets.get(request.task.assetsKey),
      library.get(request.task.assetsKey),
    );
    // Text goes back as a string: encoding it to bytes here to transfer them cost more (2.4 s a
    // gigabyte) than the copy structured cloning makes.
    parentPort?.postMessage({ seq: request.seq, result });
  } catch (error) {
    parentPort?.postMessage({
      seq: request.seq,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
