import type { Diagnostic } from '../model/diagnostic.js';
import type { BuildChange } from '../model/build-conversation.js';
import type { Conversation, Memory } from '../model/pam.js';
import type { RecordFormat } from '../read/read-records.js';

/** What an entry of an export holds, as a provider sees it. */
export type EntryRole =
  | 'conversations'
  | 'account'
  | 'memories'
  | 'projects'
  | 'asset-names'
  // Files of the user's library linked to the message that made them (ChatGPT's library_files.json).
  | 'library-files'
  // A list of the export's parts (Claude.ai's 2026 download manifest): checked, not converted.
  | 'manifest'
  // A PAM memory store (`memory-store.json`), full or incremental: merged into the bundle's.
  | 'memory-store'
  // A coding agent's store chatgraph can find but not read (`AgentStore.unreadable` says why):
  // counted and reported, never converted, so an import never answers it with "0 sessions".
  | 'unreadable';

/** A provider's claim on an entry. */
export interface Detection {
  role: EntryRole;
  format: RecordFormat;
  /** The container variant, recorded in `provider.export_format_version`. */
  variant: string;
}

/** The account an export belongs to (`users.json`, `user.json`). */
export interface Account {
  id: string;
  name?: string;
  email?: string;
}

/** A file of the user's library, linked to the message that made or took it. */
export interface LibraryFile {
  /** The file's id, as the export's files are named (`file_…`). */
  fileId: string;
  /** The platform id of the message it is linked to (null: the export names none). */
  messageId: string | null;
  /** The platform id of the conversation it came from, when the export names it. */
  threadId?: string | null;
  /** When the library made it (a PAM timestamp), to place it when its message is missing. */
  createdAt?: string | null;
  name: string | null;
  mimeType: string | null;
  sizeBytes: number | null;
  /** What the library calls it: `image` (generated), `report` (a generated document), … */
  artifactType: string | null;
}

/**
 * A provider's tools that read or modify files, for the graph's File nodes. A call names its
 * file in its input's `file_path`, `notebook_path` or `path`, or in one of `pathKeys`; a patch
 * tool's input (or its `input`, `patch` field) is a patch naming its files on `*** Update
 * File:`, `*** Add File:` and `*** Delete File:` lines (Codex's `apply_patch`). A relative path
 * is taken from the session's working folder.
 */
export interface FileTools {
  read: readonly string[];
  modify: readonly string[];
  pathKeys?: readonly string[];
  patch?: readonly string[];
}

/** What a pure conversion may ask of the import around it. */
export interface ConversionContext {
  /** Reports a problem in the current record. */
  report: (diagnostic: Omit<Diagnostic, 'file'>) => void;
  /**
   * Looks up a file of the export by a provider's pointer (`file-service://file-abc`) and
   * returns its bundle-relative `ref` (it will be copied), or undefined when it is not there.
   */
  resolveAsset: (pointer: string) => string | undefined;
  /**
   * Keeps text the export holds for an attachment (Claude.ai's pasted or extracted text) as a
   * file of the bundle, and returns that file's bundle-relative `ref`. `conversationId` is the
   * PAM id of the conversation it belongs to (`conversationIdOf`).
   */
  attachText: (conversationId: string, name: string | null, text: string) => string;
  /**
   * The library files the export links to a message, by the message's platform id; and with
   * `thread:<conversation platform id>`, every file that came from that conversation.
   */
  libraryFilesOf?: (messageId: string) => readonly LibraryFile[];
  /** The time of the export file itself, the last resort for a record with no time at all. */
  readonly fallbackTime: string | undefined;
  /** The record's position in its file, for messages. */
  readonly record: string;
  /** The file's path inside its export (`proj/abc.jsonl`), for providers whose ids live in names. */
  readonly file: string;
  /**
   * The file's absolute path on disk, when it is a file of a folder or given alone (not a zip
   * member): a coding agent's log kept beside its project (Aider's) names the project by it.
   */
  readonly localPath?: string;
}

/** An operating system chatgraph looks for agents' stores on, as `process.platform` names it. */
export type AgentPlatform = 'linux' | 'darwin' | 'win32';

/**
 * One place a coding agent keeps its sessions on some platforms. `path` is a template: `~` is
 * the home folder, and `$XDG_CONFIG_HOME`, `$XDG_DATA_HOME`, `%APPDATA%`, `%LOCALAPPDATA%` and
 * `%USERPROFILE%` stand for those folders (with their usual defaults when unset). `env` names
 * the variable that moves it (`CODEX_HOME`), and where the sessions are below its value.
 */
export interface AgentLocation {
  platforms: readonly AgentPlatform[];
  path: string;
  env?: { name: string; path: string };
}

/** How a coding agent keeps its sessions on disk: data of its provider, not a switch elsewhere. */
export interface AgentStore {
  /**
   * How it writes them, which is how `watch` follows them: JSON Lines appended (`append`), a
   * JSON or Markdown document rewritten in place (`rewrite`), or a SQLite database (`sqlite`).
   */
  writes: 'append' | 'rewrite' | 'sqlite';
  /** Its default locations on each platform, with their environment overrides. */
  locations: readonly AgentLocation[];
  /**
   * Set when chatgraph can find the store but not read it (Windsurf's protobuf, an encrypted
   * desktop store): why, for `sources` and for `import`'s report.
   */
  unreadable?: string;
  /**
   * For an agent that keeps its log beside each project rather than in one place (Aider's
   * `.aider.chat.history.md` in each repository): the log's file name, looked for in the
   * working folders other agents' sessions name and below the home folder to `homeDepth`
   * folders down.
   */
  beside?: { file: string; homeDepth: number };
  /**
   * For an agent that appends JSON Lines: a conversion that goes on from the lines it was given
   * (Claude Code's), so following a session costs what it adds. Without one, `watch` converts a
   * session's lines again whole at each change, as `import` does.
   */
  grow?: (variant: string, context: ConversionContext) => GrowingLog;
}

/** A session log's conversion as it grows (see `AgentStore.grow`). Pure: no I/O. */
export interface GrowingLog {
  /** Adds the lines read since the last call; returns the log's conversations as of now. */
  add(lines: readonly unknown[]): Conversation[];
  /** How the last call's conversation differs from the one before (undefined: built whole). */
  readonly change: BuildChange | undefined;
  /** How many times the lines were converted again from the start. */
  readonly rebuilds: number;
}

/** One export format: how to recognise its files and turn its records into PAM. */
export interface Provider {
  /** PAM `provider.name`. */
  readonly name: string;
  /** The graph's `source` (the seed's names: `claude-ai` for Claude, `chatgpt`, ...). */
  readonly source: string;
  /** The product's name for people (`ChatGPT`, `Claude AI`), in Document titles. */
  readonly label: string;
  /** The product as people know it (`ChatGPT`, `Claude.ai`), in help and messages. */
  readonly product: string;
  /** How to get the export, and what to give chatgraph (`chatgraph sources` prints it). */
  readonly howToExport: string;
  /**
   * Its files carry other platforms' conversations, each projected as its own platform's (PAM):
   * never a conversation's graph `source`, so not one to filter by.
   */
  readonly carriesPlatforms?: boolean;
  /** Tool names that read or modify files (the graph links their calls to File nodes). */
  readonly fileTools?: FileTools;
  /** Set for a coding agent: where it keeps its sessions and how it writes them. */
  readonly agent?: AgentStore;
  /**
   * Paths of the files it reads whose extension is not `.json`, `.jsonl`, `.csv` or `.html`
   * (Aider's `.aider.chat.history.md`): only these are sniffed besides those.
   */
  readonly fileNames?: RegExp;
  /**
   * Claims an entry by its path and first bytes, or returns undefined. `where` is the file's
   * absolute path on disk when it has one: an agent whose store is known by its folder (a VS
   * Code extension's `globalStorage/<extension id>/`) is told apart by it.
   */
  detect(path: string, head: string, where?: string): Detection | undefined;
  /**
   * Turns one raw record into PAM: a conversation, several (a session log that interleaves
   * sessions), or undefined when the record is not one. Pure.
   */
  toConversation(
    raw: unknown,
    variant: string,
    context: ConversionContext,
  ): Conversation | Conversation[] | undefined;
  /** Reads the account from an `account` entry's record. */
  toAccount?(raw: unknown): Account | undefined;
  /** Turns one record of a `memories` or `projects` entry into memories. Pure. */
  toMemories?(raw: unknown, role: EntryRole, context: ConversionContext): Memory[];
  /** Reads one record of a `library-files` entry (one file of the library), or undefined. */
  toLibraryFile?(raw: unknown): LibraryFile | undefined;
  /** Reads `.dat` asset names (`conversation_asset_file_names.json`) into pairs. */
  toAssetNames?(raw: unknown): [string, string][];
  /**
   * Where a conversation lives on the platform (`https://chatgpt.com/c/<id>`), from its platform
   * id and its `raw_metadata`; undefined when the export gives no way to build it. Pure.
   */
  conversationUrl?(platformId: string, raw: Readonly<Record<string, unknown>>): string | undefined;
}
