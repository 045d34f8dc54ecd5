import type { Command } from 'commander';
import { PROVIDERS } from '../../index.js';
import type { CliIo } from '../cli-io.js';

const HOW: Record<string, string> = {
  chatgpt:
    'ChatGPT: Settings → Data controls → Export data; give the .zip (or conversations.json, or the split conversations-000.json …)',
  claude:
    'Claude.ai: Settings → Privacy → Export data; give the .zip (with or without its extension), the 2026 set of zips, or conversations.json(l)',
  'claude-code':
    'Claude Code: nothing to export; chatgraph import with no path reads ~/.claude/projects (or CLAUDE_CONFIG_DIR)',
};

/** `chatgraph sources`: the exports chatgraph reads, and how to get each. */
export function runSources(io: CliIo): void {
  for (const provider of PROVIDERS)
    io.out(`${provider.source.padEnd(12)} ${HOW[provider.name] ?? provider.label}`);
}

export function registerSources(program: Command, io: CliIo): void {
  program
    .command('sources')
    .description('list the exports chatgraph reads, and how to get each')
    .action(() => {
      runSources(io);
    });
}
