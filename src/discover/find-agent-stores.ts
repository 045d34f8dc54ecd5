import { opendir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { claimEntries, type Claim } from '../pipeline/claim.js';
import type { Provider } from '../providers/provider.js';
import { PROVIDERS } from '../providers/registry.js';
import { readHead } from '../read/head.js';
import { openSource } from '../read/open-source.js';
import { agentRoots, thisMachine, type LookIn } from './agent-locations.js';

/** One store of a coding agent found on this machine: what it holds, and whether it is read. */
export interface AgentStoreFound {
  /** The provider's graph source (`codex`, `cline`). */
  source: string;
  product: string;
  /** The folder (or, for an agent that keeps a log beside each project, the file) found. */
  path: string;
  /** The environment variable that named it, when one did. */
  env?: string;
  /**
   * Its session files (or, when it cannot be read, the files that hold them; for an agent
   * that keeps them in SQLite, its database files: `unit` says which).
   */
  sessions: number;
  unit: 'session' | 'store' | 'file';
  bytes: number;
  readable: boolean;
  /** Why it cannot be read, when it cannot. */
  reason?: string;
}

/** Where and how far to look; the providers to look for (every coding agent by default). */
export interface FindAgentStoresOptions {
  /** The environment, OS and home folder to look in (this machine's by default). */
  at?: LookIn;
  providers?: readonly Provider[];
  /** Called as each store is found (to show progress). */
  onFound?: (found: AgentStoreFound) => void;
}

// Folders never walked into when looking for a log kept beside a project.
const SKIP_DIRS = new Set([
  'node_modules',
  'Library',
  'AppData',
  'snap',
  'go',
  'venv',
  '__pycache__',
]);
// How many folders a walk of the home folder looks into at most.
const WALK_LIMIT = 20_000;
// How many session heads are read for the working folders they name.
const CWD_HEADS = 2_000;

/**
 * Looks in every coding agent's default locations (and their environment overrides) on this
 * machine and lists the stores found there that hold sessions, with their counts and sizes,
 * and those found that cannot be read (with why). Agents that keep their log beside each
 * project (Aider) are looked for in the working folders the other agents' sessions name and
 * below the home folder a few folders down.
 */
export async function findAgentStores(
  options: FindAgentStoresOptions = {},
): Promise<AgentStoreFound[]> {
  const at = options.at ?? thisMachine(process.env, homedir());
  const providers = (options.providers ?? PROVIDERS).filter((p) => p.agent !== undefined);
  const found: AgentStoreFound[] = [];
  const workingFolders = new Set<string>();
  const add = (store: AgentStoreFound): void => {
    found.push(store);
    options.onFound?.(store);
  };
  for (const provider of providers.filter((p) => p.agent?.beside === undefined)) {
    for (const root of agentRoots(provider, at)) {
      const { claims, folders } = await claimsIn(root.path, provider, workingFolders.size);
      if (claims.length === 0) continue;
      for (const folder of folders) workingFolders.add(folder);
      add({
        source: provider.source,
        product: provider.product,
        path: root.path,
        ...(root.env !== undefined ? { env: root.env } : {}),
        sessions: claims.length,
        unit: unitOf(provider),
        bytes: claims.reduce((sum, c) => sum + (c.entry.size ?? 0), 0),
        readable: provider.agent?.unreadable === undefined,
        ...(provider.agent?.unreadable !== undefined ? { reason: provider.agent.unreadable } : {}),
      });
    }
  }
  for (const provider of providers) {
    const beside = provider.agent?.beside;
    if (!beside) continue;
    const folders = new Set([
      ...workingFolders,
      ...(await foldersBelow(at.home, beside.homeDepth)),
    ]);
    for (const folder of [...folders].sort()) {
      const path = join(folder, beside.file);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile() !== true) continue;
      const { claims } = await claimsIn(path, provider, CWD_HEADS);
      if (claims.length === 0) continue;
      add({
        source: provider.source,
        product: provider.product,
        path,
        sessions: claims.length,
        unit: 'session',
        bytes: info.size,
        readable: true,
      });
    }
  }
  return found;
}

function unitOf(provider: Provider): AgentStoreFound['unit'] {
  if (provider.agent?.unreadable !== undefined) return 'file';
  return provider.agent?.writes === 'sqlite' ? 'store' : 'session';
}

// The files of a folder (or a file) this provider claims, conversations or unreadable ones,
// and the working folders their first lines name.
async function claimsIn(
  path: string,
  provider: Provider,
  headsRead: number,
): Promise<{ claims: Claim[]; folders: string[] }> {
  const info = await stat(path).catch(() => undefined);
  if (!info || (!info.isDirectory() && !info.isFile())) return { claims: [], folders: [] };
  const source = await openSource(path);
  try {
    const claims = (await claimEntries(source, path, info.isFile())).filter(
      (c) =>
        c.provider === provider &&
        (c.detection.role === 'conversations' || c.detection.role === 'unreadable'),
    );
    return { claims, folders: await namedWorkingFolders(claims, headsRead) };
  } finally {
    await source.close();
  }
}

const CWD = /"(?:cwd|cwdOnTaskInitialization)"\s*:\s*"((?:[^"\\]|\\.)+)"/g;

// The working folders the sessions' first lines name (Codex's session_meta, Claude Code's and
// Qwen Code's records): where a project's own logs may sit.
async function namedWorkingFolders(claims: readonly Claim[], known: number): Promise<string[]> {
  const folders = new Set<string>();
  for (const claim of claims.slice(0, Math.max(0, CWD_HEADS - known))) {
    const head = (await readHead(claim.entry, 16 * 1024)).toString('utf8');
    for (const match of head.matchAll(CWD)) {
      try {
        const folder = JSON.parse(`"${match[1] ?? ''}"`) as unknown;
        if (typeof folder === 'string' && folder !== '') folders.add(folder);
      } catch {
        // An escape cut by the head's end: that line's folder is not named.
      }
    }
  }
  return [...folders];
}

// The home folder and the folders below it to `depth`, hidden ones and tool caches left out.
async function foldersBelow(home: string, depth: number): Promise<string[]> {
  const out: string[] = [];
  let level = [home];
  for (let d = 0; d <= depth && level.length > 0 && out.length < WALK_LIMIT; d++) {
    const next: string[] = [];
    for (const dir of level) {
      out.push(dir);
      if (d === depth) continue;
      try {
        for await (const dirent of await opendir(dir))
          if (dirent.isDirectory() && !dirent.name.startsWith('.') && !SKIP_DIRS.has(dirent.name))
            next.push(join(dir, dirent.name));
      } catch {
        // A folder that cannot be listed (permissions) is passed by.
      }
    }
    level = next.sort().slice(0, WALK_LIMIT);
  }
  return out;
}
