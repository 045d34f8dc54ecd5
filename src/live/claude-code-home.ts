import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Claude Code keeps its session logs: each folder of `CLAUDE_CONFIG_DIR` (a comma-separated
 * list), `$XDG_CONFIG_HOME/claude`, `~/.claude`, each with `projects/`; those that exist.
 */
export function claudeCodeProjectDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const roots: string[] = [];
  for (const dir of (env.CLAUDE_CONFIG_DIR ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean))
    roots.push(dir);
  if (env.XDG_CONFIG_HOME) roots.push(join(env.XDG_CONFIG_HOME, 'claude'));
  roots.push(join(homedir(), '.config', 'claude'), join(homedir(), '.claude'));
  return [...new Set(roots.map((root) => join(root, 'projects')))].filter((dir) => existsSync(dir));
}
