import { readFileSync } from 'node:fs';

/**
 * chatgraph's version, from the package file it ships with (a test keeps VERSION equal to it):
 * read, not imported with the library, so `--version` loads none of chatgraph.
 */
export function packageVersion(): string {
  const pkg: unknown = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  );
  const version =
    typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  if (typeof version !== 'string') throw new Error('package.json names no version');
  return version;
}
