import { plural } from '../model/plural.js';
import type { ReportBuilder } from './import-report.js';
import type { Claim } from './claim.js';
import type { ConvertedConversation } from './convert-record.js';
import type { KeptApart } from './keep-apart.js';
import type { StoredMerge } from './merge-stored.js';

/**
 * Stage 5, settle: which converted conversations are written. One deleted with `chatgraph
 * delete` is left out ({@link Settler.deleted}, before anything is read for it); one already in
 * the bundle comes merged with its copy there (see `mergeWithStored`): written unless the copy
 * there stays as it was, its counts in the report swapped for the merged copy's when it appeared
 * before in this import, and said when the bundle's copy was the newer one.
 */
export class Settler {
  private readonly updatedOf = new Map<string, string>();
  private readonly countsOf = new Map<string, ConvertedConversation['counts']>();
  private leftDeleted = 0;
  /** Conversations of this import given ids of their own: the id they came with → theirs. */
  readonly apartIds = new Map<string, string>();

  constructor(
    private readonly report: ReportBuilder,
    private readonly deleted: ReadonlySet<string> | undefined,
  ) {}

  /** Whether this conversation was deleted with `chatgraph delete` (and is left out). */
  isDeleted(converted: ConvertedConversation): boolean {
    if (!this.deleted?.has(converted.id)) return false;
    this.leftDeleted++;
    return true;
  }

  /** Says that a conversation came with the id of another one of the bundle and got its own. */
  keptApart(claim: Claim, apart: KeptApart): void {
    const { converted } = apart;
    this.apartIds.set(apart.from, converted.id);
    this.report.summary(claim.provider.name).keptApart++;
    this.report.add({
      level: 'warning',
      code: 'conversation-kept-apart',
      message: `conversation ${converted.platformId ?? apart.from} has the id ${apart.from} of another conversation in the bundle, but is not the same conversation (${apart.why}); kept both, this one as ${converted.id}`,
      file: claim.entry.displayPath,
    });
  }

  /** Whether this conversation, merged with the bundle's copy, is to be written. */
  keep(claim: Claim, merge: StoredMerge): boolean {
    const { converted } = merge;
    const provider = claim.provider.name;
    const label = converted.platformId ?? converted.id;
    const before = this.updatedOf.get(converted.id);
    if (before !== undefined) {
      this.report.written.duplicates++;
      this.report.add({
        level: 'info',
        code: 'duplicate-conversation',
        message: merge.kept
          ? `conversation ${label} appeared before in this import; this copy is not newer and adds nothing, so it is skipped`
          : merge.keptNewer
            ? `conversation ${label} appeared before in this import; this copy is older: the ${plural(merge.added, 'message')} only it had ${merge.added === 1 ? 'is' : 'are'} merged in`
            : `conversation ${label} appeared before in this import; this newer copy replaces it (messages only the other had are kept)`,
        file: claim.entry.displayPath,
      });
      if (merge.kept) return false;
      const counted = this.countsOf.get(converted.id);
      if (counted) this.report.replaceCounts(provider, counted, converted.counts);
    } else {
      this.report.addCounts(provider, converted.counts);
      if (merge.keptNewer) {
        this.report.summary(provider).keptNewer++;
        this.report.add({
          level: 'info',
          code: 'kept-newer-copy',
          message: merge.kept
            ? `conversation ${label}: the bundle holds a newer copy than this one (which adds no message); kept it as it is`
            : `conversation ${label}: the bundle holds a newer copy than this one; kept it, with the ${plural(merge.added, 'message')} only this copy had merged in`,
          file: claim.entry.displayPath,
        });
      }
    }
    this.updatedOf.set(converted.id, converted.updated);
    this.countsOf.set(converted.id, converted.counts);
    return true;
  }

  /** Says in the report how many deleted conversations were left out. */
  finish(): void {
    if (this.leftDeleted === 0) return;
    this.report.add({
      level: 'info',
      code: 'deleted-conversation-left-out',
      message: `${plural(this.leftDeleted, 'conversation')} deleted with "chatgraph delete" ${this.leftDeleted === 1 ? 'was' : 'were'} left out (import --restore brings them back)`,
    });
  }
}
