import { parentPort } from 'node:worker_threads';
import { convertRecord, type RecordTask } from './convert-record.js';

/** Messages a conversion worker takes. */
export type WorkerRequest =
  | { type: 'assets'; key: string; pairs: [string, string][] }
  | { type: 'task'; seq: number; task: RecordTask };

const assets = new Map<string, Map<string, string>>();

parentPort?.on('message', (request: WorkerRequest) => {
  if (request.type === 'assets') {
    assets.set(request.key, new Map(request.pairs));
    return;
  }
  try {
    parentPort?.postMessage({
      seq: request.seq,
      result: convertRecord(request.task, assets.get(request.task.assetsKey)),
    });
  } catch (error) {
    parentPort?.postMessage({
      seq: request.seq,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
