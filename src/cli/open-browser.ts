import { spawn } from 'node:child_process';

/** The command that opens a URL in the user's browser on this platform. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/**
 * Opens `url` in the browser, without waiting for it (the opener is left to run on its own).
 * Resolves with why it could not, or undefined once the opener started.
 */
export function openBrowser(url: string): Promise<string | undefined> {
  const [command, args] = opener(url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ENOENT' ? `${command} was not found` : error.message);
    });
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
}
