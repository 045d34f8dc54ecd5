import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { agentRoots, thisMachine } from '../discover/agent-locations.js';
import { claudeCode } from '../providers/claude-code/index.js';

/**
 * Where Claude Code keeps its session logs on this machine, as its provider declares them:
 * each folder of `CLAUDE_CONFIG_DIR` (a comma-separated list), `~/.claude`, and
 * `$XDG_CONFIG_HOME/claude` on Linux, each with `projects/`; those that exist.
 */
export function claudeCodeProjectDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return agentRoots(claudeCode, thisMachine(env, homedir()))
    .map((root) => root.path)
    .filter((dir) => existsSync(dir));
}
