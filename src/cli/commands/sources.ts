import type { Command } from 'commander';
import {
  PROVIDERS,
  findAgentStores,
  type AgentStoreFound,
  type Provider,
} from '../../api/sources.js';
import type { CliIo } from '../cli-io.js';
import { plural } from '../plural.js';

/** One source as `sources --json` lists it; a coding agent's says where it keeps its sessions. */
function sourceJson(p: Provider): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    source: p.source,
    product: p.product,
    howToExport: p.howToExport,
  };
  if (!p.agent) return entry;
  entry.kind = 'agent';
  entry.locations = p.agent.locations.map((l) => ({
    platforms: l.platforms,
    path: l.path,
    ...(l.env ? { env: l.env.name, envPath: l.env.path } : {}),
  }));
  if (p.agent.beside) entry.beside = p.agent.beside;
  if (p.agent.unreadable !== undefined) {
    entry.readable = false;
    entry.reason = p.agent.unreadable;
  }
  return entry;
}

/** `chatgraph sources`: the exports and coding agents chatgraph reads, and how to get each. */
export function runSources(io: CliIo, json = false): void {
  if (json) {
    io.out(JSON.stringify(PROVIDERS.map(sourceJson), null, 2));
    return;
  }
  const exports = PROVIDERS.filter((p) => !p.agent);
  const agents = PROVIDERS.filter((p) => p.agent);
  for (const provider of exports) io.out(wrapped(provider));
  io.out('');
  io.out('Coding agents (import --agents finds them; sources --installed lists them):');
  for (const provider of agents) io.out(wrapped(provider));
}

const WIDTH = 80;
const INDENT = 13;

// One source's line, wrapped to 80 columns under its text (the name in the margin).
function wrapped(p: Provider): string {
  const words = `${p.product}: ${p.howToExport}`.split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && INDENT + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines
    .map((text, i) => `${(i === 0 ? p.source : '').padEnd(INDENT - 1)} ${text}`)
    .join('\n');
}

/** The size of a store, for a line: `12 KB`, `3.4 MB`. */
function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.ceil(bytes / 1024)} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One line of a store found: what, how much, where, and why it is not read when it is not. */
export function foundLine(store: AgentStoreFound): string {
  const unit = store.unit === 'store' ? 'database' : store.unit;
  const what = `${store.source.padEnd(12)} ${plural(store.sessions, unit)}, ${sizeOf(store.bytes)}`;
  const where = `${store.path}${store.env !== undefined ? ` (${store.env})` : ''}`;
  return store.readable
    ? `${what}  ${where}`
    : `${what}  ${where}: not read (${store.reason ?? ''})`;
}

/** `chatgraph sources --installed`: the coding agents' stores found on this machine. */
export async function runInstalled(io: CliIo, json: boolean): Promise<void> {
  const found = await findAgentStores();
  if (json) {
    io.out(JSON.stringify(found, null, 2));
    return;
  }
  if (found.length === 0) {
    io.out('no coding agent’s sessions found in their usual places (see chatgraph sources)');
    return;
  }
  for (const store of found) io.out(foundLine(store));
  const readable = found.filter((s) => s.readable);
  const agents = new Set(readable.map((s) => s.source)).size;
  io.out(`${plural(agents, 'agent')} found: chatgraph import --agents imports them`);
}

export function registerSources(program: Command, io: CliIo): void {
  program
    .command('sources')
    .description('list the exports and coding agents chatgraph reads, and how to get each')
    .option(
      '--installed',
      'look for the coding agents’ sessions on this machine and list what is found, with counts and sizes',
    )
    .option(
      '--json',
      'print one JSON document: [{source, product, howToExport, kind, locations, readable, reason}] (with --installed: [{source, product, path, sessions, unit, bytes, readable, reason}])',
    )
    .action(async (options: { json?: boolean; installed?: boolean }) => {
      if (options.installed === true) await runInstalled(io, options.json === true);
      else runSources(io, options.json === true);
    });
}
