import type { ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';
import { SECURITY_HEADERS } from './http-answers.js';
import type { ImportJobs } from './import-jobs.js';

/**
 * GET /api/import/:id/events: the job as server-sent events, the job now and then each change
 * of it, the stream ending with the job's end (so the page and the tests wait on an event, not
 * by asking again and again).
 */
export function streamImportEvents(jobs: ImportJobs, id: string, response: ServerResponse): void {
  let stop: (() => void) | undefined;
  let ended = false;
  const unwatch = jobs.watch(id, (job) => {
    if (ended) return;
    if (!response.headersSent)
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
      });
    response.write(`data: ${JSON.stringify(job)}\n\n`);
    if (job.state === 'running') return;
    ended = true;
    stop?.();
    response.end();
  });
  if (!unwatch) throw new ApiError(404, `no import ${id}`);
  if (ended) unwatch();
  else {
    stop = unwatch;
    response.on('close', unwatch);
  }
}
