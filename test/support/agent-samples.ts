import { claimEntries } from '../../src/pipeline/claim.js';
import { openSource } from '../../src/read/open-source.js';
import { readRecords } from '../../src/read/read-records.js';
import { parseRecord, type RawRecord } from '../../src/read/record.js';
import { fixturesOf } from './shared.js';

/** The coding agents with fixtures of their own (issue 39). */
export const AGENT_SOURCES = [
  'codex',
  'gemini-cli',
  'qwen-code',
  'cline',
  'roo-code',
  'kilo-code',
  'aider',
  'copilot-cli',
  'mistral-vibe',
  'pi',
  'vscode-copilot-chat',
  'amp',
  'continue',
] as const;

/** A record of an agent's fixture as the reader hands it over, with its provider and variant. */
export interface AgentRecord {
  provider: string;
  variant: string;
  file: string;
  record: RawRecord;
}

/** Every conversation record of a fixture (a file or a folder), read as an import reads it. */
export async function agentRecordsOf(path: string): Promise<AgentRecord[]> {
  const source = await openSource(path);
  try {
    const out: AgentRecord[] = [];
    for (const claim of await claimEntries(source, 'sample', source.entries.length === 1)) {
      if (claim.detection.role !== 'conversations') continue;
      for await (const item of readRecords(
        claim.entry,
        claim.detection.format,
        undefined,
        claim.sides,
      ))
        if (item.kind === 'record')
          out.push({
            provider: claim.provider.name,
            variant: claim.detection.variant,
            file: claim.entry.path,
            record: item,
          });
    }
    return out;
  } finally {
    await source.close();
  }
}

/** Every agent fixture's records. */
export async function allAgentRecords(): Promise<AgentRecord[]> {
  const out: AgentRecord[] = [];
  for (const folder of AGENT_SOURCES)
    for (const path of fixturesOf(folder)) out.push(...(await agentRecordsOf(path)));
  return out;
}

/** A record's value as a provider is given it. */
export function valueOf(record: RawRecord): unknown {
  const parsed = parseRecord(record);
  return parsed.ok ? parsed.value : undefined;
}
