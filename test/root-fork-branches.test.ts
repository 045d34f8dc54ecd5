import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SAMPLE_INPUTS } from './support/bundled-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { CLI } from './support/run-cli.js';

// A Claude.ai conversation whose first message was edited has two roots (one per version of
// that message) and no message with two children: a fork at the root. The bundled samples hold
// six branched conversations (three ChatGPT, one Claude.ai fork after a reply, two Claude.ai
// forks at the root); `list --branches` and the import table counted only the first four.
const Listed = z.object({
  total: z.number(),
  conversations: z.array(z.object({ title: z.string(), source: z.string() })),
});

describe('a fork at the root is a branch', () => {
  it('is counted by list --branches and by the import table', () => {
    const data = join(tempDir(), 'data');
    const table = execFileSync(
      process.execPath,
      [CLI, 'import', ...SAMPLE_INPUTS, '--data-dir', data],
      { encoding: 'utf8' },
    );
    // conversations, messages, branches: the root forks' second versions count.
    expect(table).toMatch(/claude-ai\s+18\s+53\s+3\s/);
    const listed = Listed.parse(
      JSON.parse(
        execFileSync(process.execPath, [CLI, 'list', '--branches', '--json', '--data-dir', data], {
          encoding: 'utf8',
        }),
      ),
    );
    expect(listed.total).toBe(6);
    expect(listed.conversations.filter((c) => c.source === 'claude-ai')).toHaveLength(3);
  });
});
