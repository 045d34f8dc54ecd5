import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation } from '../model/pam.js';
import { isChatRoot } from '../graph/project-messages.js';

/** Counts for one provider (or all). */
export interface ProviderSummary {
  conversations: number;
  messages: number;
  /** Alternative branches: for each fork, every child past the first. */
  branches: number;
  toolCalls: number;
  attachments: number;
  attachmentsCopied: number;
  /** Attachment text the export held inline (pasted or extracted), written into the bundle. */
  attachmentTexts: number;
  attachmentsMissing: number;
  memories: number;
  /** Records that could not be converted at all. */
  skipped: number;
  /** Messages whose time was missing and taken from the nearest known one. */
  inferredTimestamps: number;
  /** Conversations the bundle held a newer copy of than the export: kept (older messages merged in). */
  keptNewer: number;
  /**
   * Conversations that came with the id of another conversation of the bundle (another
   * platform, platform id or account): given an id of their own, neither replacing the other.
   */
  keptApart: number;
}

/** One file of the input and what was made of it. */
export interface FileReport {
  file: string;
  provider: string;
  role: string;
  variant: string;
  checksum?: string;
  bytes?: number;
}

/** Problems with one code, counted, with the first examples. */
export interface ProblemGroup {
  code: string;
  level: Diagnostic['level'];
  count: number;
  examples: Diagnostic[];
}

/** What an import did: per provider, per file, and every problem grouped by code. */
export interface ImportReport {
  bundle: string;
  files: FileReport[];
  providers: Record<string, ProviderSummary>;
  totals: ProviderSummary;
  written: { created: number; updated: number; unchanged: number; duplicates: number };
  /** Secrets masked by `--redact`, by kind (empty without it). */
  redactions: Record<string, number>;
  problems: ProblemGroup[];
}

/** How many examples of one problem code the report keeps (the count is always whole). */
export const EXAMPLES_PER_CODE = 50;

/** An empty summary. */
export function emptySummary(): ProviderSummary {
  return {
    conversations: 0,
    messages: 0,
    branches: 0,
    toolCalls: 0,
    attachments: 0,
    attachmentsCopied: 0,
    attachmentTexts: 0,
    attachmentsMissing: 0,
    memories: 0,
    skipped: 0,
    inferredTimestamps: 0,
    keptNewer: 0,
    keptApart: 0,
  };
}

/** What one conversation adds to its provider's summary. */
export type ConversationCounts = Pick<
  ProviderSummary,
  | 'messages'
  | 'branches'
  | 'toolCalls'
  | 'attachments'
  | 'attachmentsMissing'
  | 'inferredTimestamps'
>;

/** Counts a conversation for the report. */
export function countConversation(conversation: Conversation): ConversationCounts {
  const counts: ConversationCounts = {
    messages: conversation.messages.length,
    branches: 0,
    toolCalls: 0,
    attachments: 0,
    attachmentsMissing: 0,
    inferredTimestamps: 0,
  };
  let roots = 0;
  for (const message of conversation.messages) {
    if (message.children_ids.length > 1) counts.branches += message.children_ids.length - 1;
    if (isChatRoot(message)) roots++;
    counts.toolCalls += message.tool_calls.length;
    counts.attachments += message.attachments.length;
    for (const attachment of message.attachments)
      if (attachment.ref === null) counts.attachmentsMissing++;
    if (message.raw_metadata.timestamp_inferred === true) counts.inferredTimestamps++;
  }
  // Versions of the first message are branches too: a fork at the root.
  if (roots > 1) counts.branches += roots - 1;
  return counts;
}

/** Collects the report while an import runs. */
export class ReportBuilder {
  readonly files: FileReport[] = [];
  readonly providers = new Map<string, ProviderSummary>();
  readonly written = { created: 0, updated: 0, unchanged: 0, duplicates: 0 };
  readonly redactions: Record<string, number> = {};
  private readonly groups = new Map<string, ProblemGroup>();

  constructor(private readonly bundle: string) {}

  /** The summary of one provider, created on first use. */
  summary(provider: string): ProviderSummary {
    let summary = this.providers.get(provider);
    if (!summary) {
      summary = emptySummary();
      this.providers.set(provider, summary);
    }
    return summary;
  }

  /** Adds counts of masked secrets. */
  addRedactions(counts: Record<string, number>): void {
    for (const [kind, n] of Object.entries(counts))
      this.redactions[kind] = (this.redactions[kind] ?? 0) + n;
  }

  /** Records a problem. */
  add(diagnostic: Diagnostic): void {
    let group = this.groups.get(diagnostic.code);
    if (!group) {
      group = { code: diagnostic.code, level: diagnostic.level, count: 0, examples: [] };
      this.groups.set(diagnostic.code, group);
    }
    group.count++;
    if (group.examples.length < EXAMPLES_PER_CODE) group.examples.push(diagnostic);
  }

  /** Adds a converted conversation's counts. */
  addCounts(provider: string, counts: ConversationCounts): void {
    const summary = this.summary(provider);
    summary.conversations++;
    for (const key of Object.keys(counts) as (keyof ConversationCounts)[])
      summary[key] += counts[key];
  }

  /** Swaps the counts of a conversation replaced by a newer copy: the report counts what is written. */
  replaceCounts(provider: string, before: ConversationCounts, after: ConversationCounts): void {
    const summary = this.summary(provider);
    for (const key of Object.keys(after) as (keyof ConversationCounts)[])
      summary[key] += after[key] - before[key];
  }

  /** The finished report. */
  build(): ImportReport {
    const totals = emptySummary();
    for (const summary of this.providers.values()) {
      for (const key of Object.keys(totals) as (keyof ProviderSummary)[])
        totals[key] += summary[key];
    }
    const order = { error: 0, warning: 1, info: 2 };
    return {
      bundle: this.bundle,
      files: this.files,
      providers: Object.fromEntries(this.providers),
      totals,
      written: { ...this.written },
      redactions: { ...this.redactions },
      problems: [...this.groups.values()].sort(
        (a, b) =>
          order[a.level] - order[b.level] || b.count - a.count || a.code.localeCompare(b.code),
      ),
    };
  }
}

/** The report with problems found after it was built (a reindex's left-out files) added. */
export function withProblems(
  report: ImportReport,
  diagnostics: readonly Diagnostic[],
): ImportReport {
  if (diagnostics.length === 0) return report;
  const groups = new Map(report.problems.map((g) => [g.code, { ...g, examples: [...g.examples] }]));
  for (const diagnostic of diagnostics) {
    const group = groups.get(diagnostic.code) ?? {
      code: diagnostic.code,
      level: diagnostic.level,
      count: 0,
      examples: [],
    };
    groups.set(diagnostic.code, group);
    group.count++;
    if (group.examples.length < EXAMPLES_PER_CODE) group.examples.push(diagnostic);
  }
  const order = { error: 0, warning: 1, info: 2 };
  const problems = [...groups.values()].sort(
    (a, b) => order[a.level] - order[b.level] || b.count - a.count || a.code.localeCompare(b.code),
  );
  return { ...report, problems };
}
