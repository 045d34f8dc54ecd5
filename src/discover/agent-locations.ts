import { posix, win32 } from 'node:path';
import type { AgentLocation, AgentPlatform, Provider } from '../providers/provider.js';

/** Where to look: the environment, the operating system and the home folder. */
export interface LookIn {
  env: Readonly<Record<string, string | undefined>>;
  platform: AgentPlatform;
  home: string;
}

/** The machine chatgraph runs on, as {@link LookIn} (an unknown OS is looked at as Linux). */
export function thisMachine(env: NodeJS.ProcessEnv, home: string): LookIn {
  const { platform } = process;
  return {
    env,
    platform: platform === 'darwin' || platform === 'win32' ? platform : 'linux',
    home,
  };
}

/** One folder or file an agent may keep its sessions in, and how it was named. */
export interface AgentRoot {
  path: string;
  /** The environment variable it came from, when it did (`CODEX_HOME`). */
  env?: string;
}

/**
 * The folders a coding agent keeps its sessions in on this machine, from its provider's
 * locations: each environment override first (a comma-separated list is several folders, as
 * `CLAUDE_CONFIG_DIR` allows), then the defaults of this platform, each once.
 */
export function agentRoots(provider: Provider, at: LookIn): AgentRoot[] {
  const roots: AgentRoot[] = [];
  const locations = provider.agent?.locations ?? [];
  const path = pathOf(at.platform);
  for (const location of locations) {
    const value = location.env ? at.env[location.env.name]?.trim() : undefined;
    if (!location.env || !value) continue;
    for (const dir of value
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean))
      roots.push({ path: path.join(expand(dir, at), location.env.path), env: location.env.name });
  }
  for (const location of locations.filter((l) => l.platforms.includes(at.platform)))
    roots.push({ path: resolveLocation(location, at) });
  const seen = new Set<string>();
  return roots.filter((root) => {
    const key = path.normalize(root.path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A location's template made a path: `~` is the home folder; `$XDG_CONFIG_HOME`,
 * `$XDG_DATA_HOME`, `%APPDATA%`, `%LOCALAPPDATA%` and `%USERPROFILE%` are those folders (their
 * usual defaults when unset or not absolute, as the XDG specification says).
 */
export function resolveLocation(location: AgentLocation, at: LookIn): string {
  return pathOf(at.platform).normalize(expand(location.path, at));
}

function expand(template: string, at: LookIn): string {
  const path = pathOf(at.platform);
  const { home, env } = at;
  const absolute = (value: string | undefined): string | undefined =>
    value !== undefined && path.isAbsolute(value) ? value : undefined;
  const folders: Record<string, string> = {
    $XDG_CONFIG_HOME: absolute(env.XDG_CONFIG_HOME) ?? path.join(home, '.config'),
    $XDG_DATA_HOME: absolute(env.XDG_DATA_HOME) ?? path.join(home, '.local', 'share'),
    '%APPDATA%': absolute(env.APPDATA) ?? path.join(home, 'AppData', 'Roaming'),
    '%LOCALAPPDATA%': absolute(env.LOCALAPPDATA) ?? path.join(home, 'AppData', 'Local'),
    '%USERPROFILE%': absolute(env.USERPROFILE) ?? home,
  };
  let out = template;
  if (out === '~' || out.startsWith('~/')) out = home + out.slice(1);
  for (const [name, value] of Object.entries(folders))
    if (out.startsWith(name)) out = value + out.slice(name.length);
  return path.normalize(out);
}

// Windows paths on Windows, POSIX ones elsewhere, whatever the OS the code runs on (the
// tests lay out each OS's home folder).
function pathOf(platform: AgentPlatform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}
