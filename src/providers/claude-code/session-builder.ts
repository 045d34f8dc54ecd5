import {
  emptyBuildMemo,
  type BuildChange,
  type BuildMemo,
} from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Conversation, JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asObject, asText } from '../untrusted.js';
import { mostCompleteByUuid } from './most-complete.js';
import { pairToolResults } from './pair-tool-results.js';
import { draftEntry, emptyDraftState, type DraftState } from './session-drafts.js';
import { emptyScan, scanEntry, type LogicalEntry, type SessionScan } from './session-scan.js';
import { scannedConversation, toClaudeCodeConversation } from './to-conversation.js';

/** The converter's state after the lines read so far, to go on from with the next ones. */
interface Progress {
  sessionId: string | undefined;
  best: Map<string, JsonObject>;
  seen: Set<string>;
  scan: SessionScan;
  byMessageId: Map<string, LogicalEntry>;
  drafts: DraftState;
  /** The last logical entry drafted, and how to take its draft back (a split reply grows). */
  last: LogicalEntry | undefined;
  undoLast: (() => void) | undefined;
  /** The drafts and pending tool results before the last entry's. */
  lastAt: { drafts: number; results: number };
  paired: number;
  memo: BuildMemo;
  changed: Set<DraftMessage>;
}

/**
 * Converts a Claude Code session log that grows line by line, as `import` would convert the
 * whole file at each moment, at the cost of the new lines: the provider's own steps (scan,
 * drafts, tool-result pairing, building) go on from where they stopped, and messages whose
 * drafts did not change are the previous conversation's objects (see `BuildMemo`). What the
 * steps cannot take incrementally is converted again from the start: a file holding several
 * sessions, a line repeating an earlier uuid, a part of a split reply that is not the last
 * entry, a tool result without its call.
 */
export class SessionBuilder {
  private readonly entries: (JsonObject | undefined)[] = [];
  private progress: Progress | undefined;
  /** How many times the lines were converted again from the start (for tests and figures). */
  rebuilds = 0;

  constructor(
    private readonly variant: string,
    private readonly context: ConversionContext,
  ) {}

  /** How the last call's conversation differs from the one before (undefined: built whole). */
  get change(): BuildChange | undefined {
    return this.progress?.memo.change;
  }

  /** Adds the lines read since the last call; returns the log's conversations as of now. */
  add(lines: readonly unknown[]): Conversation[] {
    const added = lines.map((line) => asObject(line));
    const from = this.entries.length;
    for (const item of added) this.entries.push(item);
    if (!this.progress || !this.extend(this.progress, added, from)) this.rebuild();
    const progress = this.progress;
    if (!progress) return this.batch();
    const conversation = scannedConversation(
      progress.scan,
      progress.drafts.out,
      this.variant,
      this.context,
      progress.memo,
    );
    return conversation ? [conversation] : [];
  }

  private batch(): Conversation[] {
    const value = { entries: this.entries, badLines: [], cutLastLine: false };
    const converted = toClaudeCodeConversation(value, this.variant, this.context);
    return converted === undefined ? [] : Array.isArray(converted) ? converted : [converted];
  }

  // All lines again, as the batch converter orders its steps: scan all, draft all, pair all.
  private rebuild(): void {
    this.rebuilds++;
    this.progress = undefined;
    const sessions = new Set(this.entries.map((e) => asText(e?.sessionId)));
    sessions.delete(undefined);
    if (sessions.size > 1) return;
    const progress = emptyProgress([...sessions][0], mostCompleteByUuid(this.entries));
    this.entries.forEach((entry, index) => {
      scanEntry(progress.scan, { ...progress, entry, index, context: this.context });
    });
    for (const item of progress.scan.logical) this.draft(progress, item);
    if (!this.pair(progress)) return;
    // The first build of the memo: every message is new.
    this.progress = progress;
  }

  // Goes on with the new lines; false when they need the whole log converted again.
  private extend(progress: Progress, added: (JsonObject | undefined)[], from: number): boolean {
    for (const [i, entry] of added.entries()) {
      const session = asText(entry?.sessionId);
      if (
        session !== undefined &&
        progress.sessionId !== undefined &&
        session !== progress.sessionId
      )
        return false;
      progress.sessionId ??= session;
      const uuid = asText(entry?.uuid);
      if (uuid !== undefined && entry) {
        if (progress.best.has(uuid)) return false;
        progress.best.set(uuid, entry);
      }
      const item = scanEntry(progress.scan, {
        ...progress,
        entry,
        index: from + i,
        context: this.context,
      });
      if (!item) continue;
      if (item === progress.last) {
        // A later part of the reply drafted last: its draft is made again with every part.
        if (!progress.undoLast || progress.paired > progress.lastAt.results) return false;
        progress.undoLast();
      } else if (item !== progress.scan.logical.at(-1)) return false;
      // A tool call id used again: results already paired may belong to the new call.
      if (!this.draft(progress, item)) return false;
    }
    return this.pair(progress);
  }

  // Drafts one entry; false when it took over a tool call id of an earlier one.
  private draft(progress: Progress, item: LogicalEntry): boolean {
    const { out } = progress.drafts;
    progress.lastAt = { drafts: out.drafts.length, results: out.pendingResults.length };
    progress.undoLast = draftEntry(progress.drafts, item, this.context);
    progress.last = item;
    return progress.undoLast !== undefined;
  }

  // Pairs the tool results not paired yet; a result whose call is not known (yet) makes every
  // later append convert the whole log, as its place would depend on lines still to come.
  private pair(progress: Progress): boolean {
    const { out } = progress.drafts;
    const pending = out.pendingResults.slice(progress.paired);
    if (pending.some(({ block }) => !out.calls.has(asText(block.tool_use_id) ?? ''))) return false;
    if (pending.length > 0) {
      pairToolResults(
        out,
        progress.scan.sessionId,
        this.context,
        progress.paired,
        progress.changed,
      );
      // A result paired with a call of the last entry would be lost if its draft were made again.
      const lastDrafts = new Set(out.drafts.slice(progress.lastAt.drafts));
      for (const draft of progress.changed) {
        progress.memo.changed.add(draft);
        if (lastDrafts.has(draft)) progress.undoLast = undefined;
      }
      progress.changed.clear();
    }
    progress.paired = out.pendingResults.length;
    return true;
  }
}

function emptyProgress(sessionId: string | undefined, best: Map<string, JsonObject>): Progress {
  return {
    sessionId,
    best,
    seen: new Set(),
    scan: emptyScan(),
    byMessageId: new Map(),
    drafts: emptyDraftState(),
    last: undefined,
    undoLast: undefined,
    lastAt: { drafts: 0, results: 0 },
    paired: 0,
    memo: emptyBuildMemo(),
    changed: new Set(),
  };
}
