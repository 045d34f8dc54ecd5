/** A web page an answer found or cites. */
export interface SampleSource {
  title: string;
  url: string;
  /** The passage the answer leans on. */
  quote: string;
}

/** Something the assistant does before it answers, in order. */
export type SampleStep =
  /** Its reasoning (ChatGPT's thoughts, Claude's thinking block). */
  | { thinking: string; seconds: number }
  /** A web search and the pages it returned. */
  | { search: string; results: SampleSource[] }
  /** Code the assistant runs (ChatGPT's python tool, Claude's analysis tool) and what it printed. */
  | { run: string; output: string }
  /** Any other tool call (Claude Code's Read, Edit, Bash...), its input and its result. */
  | { tool: string; input: Record<string, unknown>; output: string };

/** An assistant's answer: its steps, then its text. */
export interface SampleReply {
  text: string;
  steps?: SampleStep[];
  /** Pages the text cites. */
  cites?: SampleSource[];
}

/** A file the user attaches: pasted text, a document or an image. */
export interface SampleFile {
  name: string;
  /** The text of a document or of pasted text; an image has none. */
  text?: string;
}

/** One exchange: what the user asked and the answer shown. */
export interface SampleTurn {
  user: string;
  files?: SampleFile[];
  reply: SampleReply | string;
  /**
   * An earlier version kept on a side branch: with `user`, the question before the user edited
   * it (and the answer it got); without, an answer the user regenerated.
   */
  before?: { user?: string; reply: SampleReply | string };
  /** Minutes since the previous turn, when the user came back later. */
  later?: number;
}

/** A conversation as the person had it. */
export interface SampleConversation {
  /** A short stable name: the seed of every id in it. */
  slug: string;
  title: string;
  /** When it started (UTC). */
  start: string;
  /** The model of that time. */
  model: string;
  turns: SampleTurn[];
}

/** A ChatGPT conversation, maybe with the user's custom instructions. */
export interface ChatgptSample extends SampleConversation {
  instructions?: { profile: string; instructions: string };
}

/** A Claude Code session: where it ran. */
export interface ClaudeCodeSample extends SampleConversation {
  cwd: string;
  branch: string;
  /** Claude Code's version. */
  version: string;
}
