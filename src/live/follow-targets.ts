import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { agentRoots, thisMachine, type LookIn } from '../discover/agent-locations.js';
import { findAgentStores, type AgentStoreFound } from '../discover/find-agent-stores.js';
import type { Provider } from '../providers/provider.js';
import { PROVIDERS, findProvider } from '../providers/registry.js';

/** What a follower follows: a folder, with what is below it, or one file. */
export interface FollowTarget {
  path: string;
  /**
   * The coding agent whose sessions it holds (only its files are followed there); undefined for
   * a folder given to `watch`: every agent's sessions found there, and exports dropped in.
   */
  provider?: Provider | undefined;
  /** The environment variable that named it (`CODEX_HOME`). */
  env?: string | undefined;
}

/** The agents' stores to follow, and those found that cannot be read (with why). */
export interface AgentTargets {
  targets: FollowTarget[];
  unreadable: AgentStoreFound[];
}

/**
 * The coding agents' stores on this machine, as `import --agents` finds them (each agent's
 * default locations and environment overrides, and the logs some agents keep beside each
 * project), and every location of theirs that exists though it holds no session yet (an agent
 * installed, not used). `only` narrows it to the agents named (their source id, name or
 * product, in any case).
 */
export async function agentTargets(
  options: { only?: readonly string[] | undefined; at?: LookIn } = {},
): Promise<AgentTargets> {
  const at = options.at ?? thisMachine(process.env, homedir());
  const providers = agentsNamed(options.only);
  const found = await findAgentStores({ at, providers });
  const targets = new Map<string, FollowTarget>();
  for (const store of found.filter((s) => s.readable)) {
    const provider = findProvider(store.source);
    if (provider) targets.set(store.path, { path: store.path, provider, env: store.env });
  }
  for (const provider of providers) {
    if (provider.agent?.unreadable !== undefined || provider.agent?.beside !== undefined) continue;
    for (const root of agentRoots(provider, at)) {
      if (targets.has(root.path)) continue;
      const info = await stat(root.path).catch(() => undefined);
      if (info?.isDirectory() === true || info?.isFile() === true)
        targets.set(root.path, { path: root.path, provider, env: root.env });
    }
  }
  return { targets: [...targets.values()], unreadable: found.filter((s) => !s.readable) };
}

/** The coding agents named (all of them when none is); an unknown name throws, listing them. */
export function agentsNamed(names: readonly string[] | undefined): Provider[] {
  const agents = PROVIDERS.filter((p) => p.agent !== undefined);
  if (names === undefined || names.length === 0) return agents;
  return names.map((name) => {
    const wanted = name.trim().toLowerCase();
    const agent = agents.find((p) =>
      [p.source, p.name, p.product, p.label].some((n) => n.toLowerCase() === wanted),
    );
    if (!agent)
      throw new UnknownAgentError(
        `"${name}" is not a coding agent chatgraph follows; one of: ${agents.map((p) => p.source).join(', ')}`,
      );
    return agent;
  });
}

/** A name given to `watch --agent` that is no coding agent chatgraph knows. */
export class UnknownAgentError extends Error {
  override readonly name = 'UnknownAgentError';
}
