import { join } from 'node:path';
import { it } from 'vitest';
import { tempDir } from '../test/support/convert-to-temp.js';
import { ROOT } from '../test/support/shared.js';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
async function cli(...args: string[]) {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  console.log('$ ' + args.join(' ') + ` => ${code}\n` + io.stdout.join('\n') + '\n--stderr--\n' + io.stderr.join('\n'));
}
it('scratch', async () => {
  const d = tempDir();
  await cli('import', ...['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((n) => join(ROOT, 'samples', n)), '--data-dir', d, '-q');
  await cli('list', '--data-dir', d, '--limit', '5');
  await cli('ls', '--data-dir', d, '--limit', '2', '--sort', 'title', '--json');
  await cli('list', '--data-dir', d, '--project', 'a', '--min-messages', '3', '--sort', 'messages');
  await cli('list', '--data-dir', d, '--sort', 'titel');
  await cli('search', 'x', '--limt', '5', '--data-dir', d);
  await cli('search', 'x', '--source', 'chatgtp', '--data-dir', d);
  await cli('search', 'x', '--mode', 'hybird', '--data-dir', d);
  await cli('import', '--dta-dir', d);
  await cli('serch', 'x');
  await cli('frobnicate');
  await cli('model', 'lst');
  await cli('thread');
  await cli('stats', '--data-dir', d, '--json');
}, 120000);
