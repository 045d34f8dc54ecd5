import { spawn } from 'node:child_process';
import { graphemes } from './graphemes.js';

/**
 * The pager a person at a terminal reads long output in, as git chooses it: `$PAGER`, else
 * `less`; none when it is empty or `cat`.
 */
export function pagerCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = (env.PAGER ?? 'less').trim();
  return chosen === '' || chosen === 'cat' ? undefined : chosen;
}

/** How many rows of a terminal `columns` wide the text takes (a long line wraps). */
export function rowsOf(text: string, columns: number): number {
  let rows = 0;
  for (const line of text.split('\n')) {
    // eslint-disable-next-line no-control-regex -- colour escapes take no room
    const shown = graphemes(line.replace(/\x1b\[[0-9;]*m/g, '')).length;
    rows += Math.max(1, Math.ceil(shown / columns));
  }
  return rows;
}

/**
 * Writes `text` through the pager and resolves when the person has left it. `LESS` defaults to
 * `FRX` as with git (quit when it fits one screen, keep colours, leave the text on the screen),
 * `LV` to `-c`. False when no pager could be started (the text was not written).
 */
export async function throughPager(command: string, text: string): Promise<boolean> {
  const child = spawn(command, {
    shell: true,
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...process.env, LESS: process.env.LESS ?? 'FRX', LV: process.env.LV ?? '-c' },
  });
  // Ctrl-C is the pager's to handle while it runs (less leaves its prompt), not a reason to die.
  const ignore = (): void => undefined;
  process.on('SIGINT', ignore);
  try {
    const done = new Promise<boolean>((resolve) => {
      child.once('error', () => {
        resolve(false);
      });
      child.once('close', () => {
        resolve(true);
      });
    });
    // The person may quit before reading it all: the rest has nowhere to go, and that is fine.
    child.stdin.on('error', ignore);
    child.stdin.end(text.endsWith('\n') ? text : `${text}\n`);
    return await done;
  } finally {
    process.off('SIGINT', ignore);
  }
}
