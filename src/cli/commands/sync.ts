import type { Command } from 'commander';
import { plural } from '../../api/view.js';
import {
  configDir,
  inviteMachine,
  joinGroup,
  openGroup,
  syncFolder,
  type SyncReport,
} from '../../api/sync.js';
import type { DataFolder } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import { onWaitOf } from '../import-options.js';
import { dataDirOption, openForWriting, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';

export type SyncCommandOptions = Pick<StoreOptions, 'dataDir'> & {
  join?: string;
  compact?: boolean;
  json?: boolean;
  /** With `json`: the report on one line (`watch --sync --json`, a JSON line per event). */
  jsonLine?: boolean;
};

/**
 * `chatgraph sync DIR`: this machine's changes out, the other machines' in, through DIR
 * (docs/sync.md). The first sync in an empty DIR starts the group; `--join CODE` joins one.
 */
export async function runSync(
  dir: string,
  options: SyncCommandOptions,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SyncReport> {
  const config = configDir(env);
  const group =
    options.join !== undefined
      ? await joinGroup(dir, options.join, { configDir: config })
      : await openGroup(dir, { configDir: config, create: true });
  const folder = await openForWriting(options, { onWait: onWaitOf(io) });
  try {
    return await syncAndSay(folder, group, dir, options, io);
  } finally {
    await folder.close();
  }
}

async function syncAndSay(
  folder: DataFolder,
  group: Parameters<typeof syncFolder>[1],
  dir: string,
  options: SyncCommandOptions,
  io: CliIo,
): Promise<SyncReport> {
  const report = await syncFolder(folder, group, dir, { compact: options.compact === true });
  // A refusal is one line on stderr whatever the output's form: scripts and people both see it.
  for (const problem of report.problems)
    if (problem.level !== 'pending') io.err(`${problem.level}: ${problem.file} ${problem.message}`);
  io.exitCode = report.exitCode;
  if (options.json) io.out(JSON.stringify(report, null, options.jsonLine === true ? 0 : 2));
  else for (const line of reportLines(report)) io.out(line);
  return report;
}

/** The report for a person, each line short enough for 80 columns but for paths. */
export function reportLines(report: SyncReport): string[] {
  const lines: string[] = [];
  const { sent } = report;
  lines.push(
    sent
      ? `sent ${sent.exportType === 'full' ? 'a full' : 'an'} export (#${String(sent.seq)}): ${counts(sent)}`
      : 'sent nothing: nothing changed here since the last sync',
  );
  if (report.compacted > 0)
    lines.push(`compacted: ${plural(report.compacted, 'older export')} folded into this one`);
  for (const r of report.received)
    lines.push(`from ${r.name}: ${counts(r)} in ${plural(r.exports, 'export')}`);
  if (report.received.length === 0) lines.push('received nothing new');
  if (report.deleted > 0)
    lines.push(`deleted here as another machine did: ${plural(report.deleted, 'conversation')}`);
  const pending = report.problems.filter((p) => p.level === 'pending').length;
  if (pending > 0)
    lines.push(`waiting for ${plural(pending, 'export')} still being copied into the folder`);
  const lost = report.problems.length - pending;
  if (lost > 0)
    lines.push(`${plural(lost, 'file')} refused or not imported (named on stderr); left in place`);
  return lines;
}

function counts(c: { conversations: number; memories: number; deletions: number }): string {
  return `${plural(c.conversations, 'conversation')}, ${plural(c.memories, 'memory', 'memories')}, ${plural(c.deletions, 'deletion')}`;
}

/** `chatgraph sync invite DIR`: a one-time code for one new machine. */
export async function runInvite(
  dir: string,
  options: { json?: boolean },
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: string; expires: string }> {
  const invite = await inviteMachine(dir, { configDir: configDir(env) });
  if (options.json) io.out(JSON.stringify(invite));
  else {
    io.out(`code: ${invite.code}`);
    io.out(`on the new machine: chatgraph sync ${dir} --join ${invite.code}`);
    io.out(`it works once, until ${invite.expires}`);
  }
  return invite;
}

export function registerSync(program: Command, io: CliIo): void {
  program
    .command('sync')
    .description(
      'one history across your machines through a folder you already sync (Syncthing, Dropbox, a share): every file sealed and signed (docs/sync.md); "sync invite DIR" makes a code for a new machine',
    )
    .usage('[options] DIR\n       chatgraph sync invite DIR [--json]')
    .argument('<dir>', 'the shared folder (or the word "invite", then the folder)')
    .argument('[invite-dir]', 'after "invite": the shared folder')
    .option(...dataDirOption)
    .option('--join <code>', 'join the group of DIR with a code from "sync invite", then sync')
    .option('--compact', "fold this machine's old exports in DIR into one full export")
    .option(
      '--json',
      'print one JSON document: {dir, machine, sent, received: [{machine, name, exports, conversations, memories, deletions}], deleted, compacted, problems: [{level, file, message}], exitCode}',
    )
    .action(async (first: string, second: string | undefined, options: SyncCommandOptions) => {
      if (first === 'invite') {
        if (second === undefined)
          throw new UsageError('sync invite needs the shared folder: chatgraph sync invite DIR');
        await runInvite(second, options, io);
        return;
      }
      if (second !== undefined)
        throw new UsageError(`sync takes one folder (got "${first}" and "${second}")`);
      await runSync(first, options, io);
    });
}
