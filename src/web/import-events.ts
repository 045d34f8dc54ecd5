import type { ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';
import { SECURITY_HEADERS } from './http-answers.js';
import type { ImportJob, ImportJobs } from './import-jobs.js';

/**
 * GET /api/import/:id/events: the job as server-sent events, the job now and then each change
 * of it, the stream ending with the job's end (so the page and the tests wait on an event, not
 * by asking again and again).
 */
export function streamImportEvents(jobs: ImportJobs, id: string, response: ServerResponse): void {
  const send = (job: ImportJob): void => {
    if (response.writableEnded) return;
    if (!response.headersSent)
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
      });
    response.write(`data: ${JSON.stringify(job)}\n\n`);
    if (job.state !== 'running') response.end();
  };
  const unwatch = jobs.watch(id, send);
  if (!unwatch) throw new ApiError(404, `no import ${id}`);
  // A job that had ended already was sent, and the stream ended, by the first call.
  if (response.writableEnded) unwatch();
  // Closed once ended, or when the browser goes away.
  else response.on('close', unwatch);
}
