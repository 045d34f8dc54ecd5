import type { Diagnostic } from './diagnostic.js';
import type { DraftMessage } from './draft.js';
import type { Message, Role } from './pam.js';
import type { SettledTree } from './settle-tree.js';

/** Options of {@link buildConversation}. */
export interface BuildOptions {
  report: (diagnostic: Omit<Diagnostic, 'file'>) => void;
  record: string;
  fallbackTime: string | undefined;
  /** Kept between builds of a conversation that grows (a followed session). */
  memo?: BuildMemo | undefined;
}

/** A conversation's messages settled: in tree order, with its shown leaf and first time. */
export interface SettledMessages {
  messages: Message[];
  shownLeaf: string | undefined;
  conversationCreated: string | undefined;
  roles: ReadonlySet<Role>;
}

/**
 * What one build of a growing conversation keeps for the next: ids already derived, each
 * message as built with what it was built from, and the settled tree to go on from (see
 * `growConversation`). A provider mutating a draft after a build (a tool result reaching its
 * call) lists it in `changed`.
 */
export interface BuildMemo {
  /** The conversation the memo is of: another one starts it afresh. */
  conversation: string | undefined;
  ids: Map<string, string>;
  built: Map<string, BuiltMessage>;
  changed: Set<DraftMessage>;
  /** The last build's tree, times and messages, when the next build may go on from them. */
  grown: GrowState | undefined;
  /** How the last build's messages differ from the one before (undefined: built whole). */
  change: BuildChange | undefined;
  /** The last build's messages (what the next change is from). */
  lastBuilt: readonly Message[] | undefined;
}

/**
 * How a grown conversation's `messages` differ from the previous build's: the same objects
 * before `from`, except at the indices in `replaced` (a message that gained a reply or whose
 * draft changed); new ones from `from` on. A projection goes on from its own last output
 * with it (see `ProjectMemo`).
 */
export interface BuildChange {
  /** The previous build's messages (those from `from` on were taken back). */
  previous: readonly Message[];
  from: number;
  replaced: readonly number[];
}

/** A message as built, with what it was built from. */
export interface BuiltMessage {
  draft: DraftMessage;
  parent: string | null;
  children: readonly string[];
  createdAt: string;
  message: Message;
}

/**
 * A settled conversation kept to grow from: the tree (grown in place), each message's time and
 * place, its leaves, and the messages built. Only `growConversation` changes it (the tree
 * `settleConversation` made is grown in place).
 */
export interface GrowState {
  /** The drafts of the build it is of, as given. */
  drafts: DraftMessage[];
  tree: SettledTree;
  created: Map<string, string>;
  /** Messages whose time was inferred (each build tells how many). */
  inferred: number;
  /** Each message's place in the tree order (= in `out`), and in the export's order. */
  orderIndex: Map<string, number>;
  exportIndex: Map<string, number>;
  leaves: Set<string>;
  shownLeaf: string | undefined;
  out: Message[];
  conversationCreated: string | undefined;
  roles: Map<Role, number>;
  /** Keys other messages wait for (a missing parent, a listed child): one arriving moves them. */
  awaited: Set<string>;
  /** What settling the tree told (repeated keys, missing parents, cycles): told at each build. */
  told: Omit<Diagnostic, 'file'>[];
}

/** A memo for the first build of a conversation that will grow. */
export function emptyBuildMemo(): BuildMemo {
  return {
    conversation: undefined,
    ids: new Map(),
    built: new Map(),
    changed: new Set(),
    grown: undefined,
    change: undefined,
    lastBuilt: undefined,
  };
}
