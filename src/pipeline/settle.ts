import type { ReportBuilder } from '../import-report.js';
import type { Claim } from './claim.js';
import type { ConvertedConversation } from './convert-record.js';

/**
 * Stage 5, settle: which converted conversations are written. One deleted with `chatgraph
 * delete` is left out; one that appeared before in this import is written again only when
 * newer, and its counts in the report are swapped for the newer copy's.
 */
export class Settler {
  private readonly seen = new Map<string, string>();
  private readonly countsOf = new Map<string, ConvertedConversation['counts']>();
  private leftDeleted = 0;

  constructor(
    private readonly report: ReportBuilder,
    private readonly deleted: ReadonlySet<string> | undefined,
  ) {}

  /** Whether this conversation is to be written. */
  keep(claim: Claim, converted: ConvertedConversation): boolean {
    if (this.deleted?.has(converted.id)) {
      this.leftDeleted++;
      return false;
    }
    const provider = claim.provider.name;
    const before = this.seen.get(converted.id);
    if (before !== undefined) {
      this.report.written.duplicates++;
      const newer = converted.updated > before;
      this.report.add({
        level: 'info',
        code: 'duplicate-conversation',
        message: newer
          ? `conversation ${converted.platformId ?? ''} appeared before in this import; this newer copy replaces it`
          : `conversation ${converted.platformId ?? ''} appeared before in this import; this copy is not newer and is skipped`,
        file: claim.entry.displayPath,
      });
      if (!newer) return false;
      const counted = this.countsOf.get(converted.id);
      if (counted) this.report.replaceCounts(provider, counted, converted.counts);
    } else {
      this.report.addCounts(provider, converted.counts);
    }
    this.seen.set(converted.id, converted.updated);
    this.countsOf.set(converted.id, converted.counts);
    return true;
  }

  /** Says in the report how many deleted conversations were left out. */
  finish(): void {
    if (this.leftDeleted === 0) return;
    this.report.add({
      level: 'info',
      code: 'deleted-conversation-left-out',
      message: `${this.leftDeleted} conversation(s) deleted with "chatgraph delete" were left out (import --restore brings them back)`,
    });
  }
}
