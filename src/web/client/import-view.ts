import { errorOf, type ImportJob } from './api.js';
import { importJob } from './answers.js';
import { readAnswerText } from './read-json.js';
import { count, errorBox, formatBytes, h, replace } from './dom.js';

function report(job: ImportJob): HTMLElement {
  const r = job.report;
  if (!r) return h('p', {}, 'Imported.');
  return h(
    'div',
    { class: 'import-report', id: 'import-report' },
    h(
      'p',
      { class: 'done' },
      `Imported ${job.file}: ${count(r.totals.conversations)} conversations, ${count(r.totals.messages)} messages, ${count(r.totals.branches)} branches, ${count(r.totals.toolCalls)} tool calls.`,
    ),
    h(
      'p',
      {},
      `Bundle: ${count(r.written.created)} new, ${count(r.written.updated)} updated, ${count(r.written.unchanged)} unchanged. Graph: ${count(r.graph.written)} indexed, ${count(r.graph.unchanged)} unchanged.`,
    ),
    r.problems.length === 0
      ? h('p', {}, 'No problems.')
      : h(
          'div',
          {},
          h('h2', {}, 'Problems'),
          h(
            'ul',
            { class: 'problems' },
            ...r.problems.map((p) =>
              h(
                'li',
                { class: `level-${p.level}` },
                h('strong', {}, `${p.code} × ${count(p.count)}`),
                p.examples[0]
                  ? ` — ${p.examples[0].file ?? ''}${p.examples[0].record ? ` record ${p.examples[0].record}` : ''}: ${p.examples[0].message}`
                  : '',
              ),
            ),
          ),
        ),
    h('p', {}, h('a', { href: '#/' }, 'See the conversations')),
  );
}

/**
 * Follows an import job by its server-sent events (the job now, then each change of it until it
 * ends), showing its progress, then its report or its error.
 */
function followJob(
  id: string,
  status: HTMLElement,
  line: HTMLElement,
  bar: HTMLProgressElement,
): void {
  const events = new EventSource(`/api/import/${encodeURIComponent(id)}/events`);
  events.onmessage = (event: MessageEvent<string>) => {
    let job: ImportJob;
    try {
      job = readAnswerText('GET /api/import/:id/events', event.data, importJob);
    } catch (error) {
      events.close();
      replace(status, errorBox(error));
      return;
    }
    if (job.state === 'running') {
      const p = job.progress;
      line.textContent = p
        ? `Importing ${job.file}: ${p.phase}, ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}, ${count(p.conversations)} conversations`
        : `Importing ${job.file}…`;
      if (p && p.bytesTotal > 0) bar.value = (p.bytesDone / p.bytesTotal) * 100;
      return;
    }
    events.close();
    replace(
      status,
      job.state === 'done' ? report(job) : errorBox(new Error(job.error ?? 'the import failed')),
    );
  };
  // A dropped connection is retried by the browser; one refused (no such job) is not.
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED)
      replace(status, errorBox(new Error('lost track of the import: reload the page')));
  };
}

/** Sends the file (XMLHttpRequest: fetch reports no upload progress), then follows the import. */
function upload(file: File, status: HTMLElement): void {
  const bar = h('progress', { max: 100, value: 0 });
  const line = h('span', {}, `Uploading ${file.name}…`);
  replace(status, line, bar);
  const request = new XMLHttpRequest();
  request.open('POST', '/api/import');
  request.setRequestHeader('X-File-Name', encodeURIComponent(file.name));
  request.setRequestHeader('Content-Type', 'application/octet-stream');
  request.upload.onprogress = (event) => {
    if (event.lengthComputable) bar.value = (event.loaded / event.total) * 100;
  };
  request.onerror = () => {
    replace(status, errorBox(new Error('the upload failed')));
  };
  request.onload = () => {
    const answer = request.responseText;
    if (request.status !== 202) {
      replace(status, errorBox(new Error(errorOf(answer) ?? (answer || request.statusText))));
      return;
    }
    let job: ImportJob;
    try {
      job = readAnswerText('POST /api/import', answer, importJob);
    } catch (error) {
      replace(status, errorBox(error));
      return;
    }
    followJob(job.id, status, line, bar);
  };
  request.send(file);
}

/** Import by dropping an export: upload progress, import progress, the import report. */
export function showImport(view: HTMLElement): void {
  const status = h('div', { id: 'import-status', class: 'import-status' });
  const input = h('input', { type: 'file', id: 'import-file', 'aria-label': 'Export file' });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) upload(file, status);
  });
  const zone = h(
    'div',
    { class: 'drop-zone', id: 'drop-zone' },
    h('p', {}, 'Drop an export here (a .zip, conversations.json, a Claude Code .jsonl …)'),
    h('p', {}, 'or ', input),
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => {
    zone.classList.remove('over');
  });
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const file = event.dataTransfer?.files[0];
    if (file) upload(file, status);
  });
  replace(view, h('h1', {}, 'Import'), zone, status);
}
