/**
 * The context graph's schema: the seed's labels, relationship types and property names
 * (seed-spec.md §1), and where chatgraph goes beyond it. Stores build their tables and
 * constraints from this one description.
 */

/** A property's type. */
export type PropertyType = 'string' | 'integer' | 'boolean';

/** One node label. */
export interface LabelSpec {
  /** Property names and types; every node also has `id`. */
  properties: Record<string, PropertyType>;
}

/** One relationship type and the labels it connects. */
export interface EdgeSpec {
  from: Label;
  to: Label;
}

export const LABELS = {
  Conversation: {
    properties: {
      name: 'string',
      title: 'string',
      conversation_id: 'string',
      pam_id: 'string',
      source: 'string',
      created_at: 'string',
      updated_at: 'string',
      message_count: 'integer',
      model_slug: 'string',
      // The first user message as one line of plain text (graph/preview.ts), for lists.
      preview: 'string',
      // Where it lives on its platform (Provider.conversationUrl), when the export tells.
      url: 'string',
      has_tool_calls: 'boolean',
      has_branches: 'boolean',
      // ChatGPT's custom GPT or project (`g-p-…`), study mode and memory scope, when the export
      // gives them (set only then, so other sources' nodes do not carry them).
      gizmo_id: 'string',
      gizmo_type: 'string',
      is_study_mode: 'boolean',
      memory_scope: 'string',
    },
  },
  Message: {
    properties: {
      name: 'string',
      role: 'string',
      content: 'string',
      created_at: 'string',
      conversation_id: 'string',
      has_tool_calls: 'boolean',
      has_tool_results: 'boolean',
      model_slug: 'string',
      provider_message_id: 'string',
      parent_id: 'string',
      position: 'integer',
      on_shown_thread: 'boolean',
      is_thought: 'boolean',
      hidden: 'boolean',
      // The URLs of the sources the message cites (PAM `citations`), one a line in their order
      // (no list type on both stores); set only on a message that cites a source with a URL.
      citations: 'string',
      // The tokens of the model call that wrote it, where a coding agent's log says
      // (`raw_metadata.token_usage`, model/token-usage.ts): `input_tokens` never includes cached
      // reads. Set only on such messages.
      input_tokens: 'integer',
      output_tokens: 'integer',
      cache_read_tokens: 'integer',
      cache_creation_tokens: 'integer',
      reasoning_tokens: 'integer',
      // The API response those tokens were counted in, where the log names it (Claude Code:
      // `message.id:requestId`): a response a resumed session copied is counted once.
      response_id: 'string',
    },
  },
  Document: {
    properties: {
      title: 'string',
      content: 'string',
      template_id: 'string',
      template_name: 'string',
      conversation_id: 'string',
      source: 'string',
      created_at: 'string',
    },
  },
  DecisionTrace: {
    properties: { task: 'string', outcome: 'string', conversation_id: 'string', source: 'string' },
  },
  TraceStep: {
    properties: {
      thought: 'string',
      action: 'string',
      observation: 'string',
      step: 'integer',
      tool_call_id: 'string',
      message_id: 'string',
      conversation_id: 'string',
    },
  },
  ToolCall: {
    properties: {
      name: 'string',
      input: 'string',
      output: 'string',
      is_error: 'boolean',
      timestamp: 'string',
      tool_call_id: 'string',
      conversation_id: 'string',
    },
  },
  // Text a person pasted or attached (Claude.ai `attachments[].extracted_content`, and the like):
  // PAM's Attachment has no text field, so the bundle keeps it as a file under `attachments/`
  // (`ref`) and the graph keeps it here, searchable, linked from its message by HAS_ATTACHMENT.
  Attachment: {
    properties: {
      name: 'string',
      mime_type: 'string',
      ref: 'string',
      size_bytes: 'integer',
      content: 'string',
      message_id: 'string',
      conversation_id: 'string',
      position: 'integer',
    },
  },
  // A PAM memory of the bundle's memory-store.json (imported, or remembered by a person or an
  // agent), every status kept: an edit supersedes, a forget retracts. `*_ref` are PAM ids.
  Memory: {
    properties: {
      type: 'string',
      status: 'string',
      content: 'string',
      summary: 'string',
      tags: 'string',
      source: 'string',
      conversation_ref: 'string',
      message_ref: 'string',
      extraction_method: 'string',
      created_at: 'string',
      updated_at: 'string',
      superseded_by: 'string',
    },
  },
  File: { properties: { path: 'string', language: 'string' } },
  // A coding session's working folder (Claude Code: `path`), or a platform's project (Claude.ai:
  // `source`, `project_id`, `description`, `instructions`; its documents by HAS_PROJECT_DOCUMENT).
  Project: {
    properties: {
      path: 'string',
      name: 'string',
      source: 'string',
      project_id: 'string',
      description: 'string',
      instructions: 'string',
    },
  },
  GitBranch: { properties: { name: 'string', project: 'string' } },
  Import: {
    properties: {
      source_file: 'string',
      checksum: 'string',
      importer: 'string',
      imported_at: 'string',
      size: 'integer',
      crc32: 'integer',
      // Whether secrets were masked (--redact): a file imported in the other mode is read again.
      redacted: 'boolean',
    },
  },
} as const satisfies Record<string, LabelSpec>;

/** A node label. */
export type Label = keyof typeof LABELS;

export const EDGES = {
  HAS_MESSAGE: { from: 'Conversation', to: 'Message' },
  NEXT: { from: 'Message', to: 'Message' },
  REPLY_TO: { from: 'Message', to: 'Message' },
  HAS_DOCUMENT: { from: 'Conversation', to: 'Document' },
  HAS_TRACE: { from: 'Conversation', to: 'DecisionTrace' },
  HAS_STEP: { from: 'DecisionTrace', to: 'TraceStep' },
  STEP_NEXT: { from: 'TraceStep', to: 'TraceStep' },
  IMPORTED: { from: 'Import', to: 'Conversation' },
  USED_TOOL: { from: 'Message', to: 'ToolCall' },
  HAS_ATTACHMENT: { from: 'Message', to: 'Attachment' },
  READ_FILE: { from: 'ToolCall', to: 'File' },
  MODIFIED_FILE: { from: 'ToolCall', to: 'File' },
  HAS_SESSION: { from: 'Project', to: 'Conversation' },
  HAS_PROJECT_DOCUMENT: { from: 'Project', to: 'Document' },
  ON_BRANCH: { from: 'Conversation', to: 'GitBranch' },
  STARTED: { from: 'ToolCall', to: 'Conversation' },
  DERIVED_FROM: { from: 'Memory', to: 'Message' },
  DERIVED_FROM_CONVERSATION: { from: 'Memory', to: 'Conversation' },
  // PAM §13 relations between memories (memory-store.json `relations`), one kind per type:
  // `from` supersedes (supports, contradicts, extends, relates to, was derived from) `to`.
  SUPERSEDES: { from: 'Memory', to: 'Memory' },
  SUPPORTS: { from: 'Memory', to: 'Memory' },
  CONTRADICTS: { from: 'Memory', to: 'Memory' },
  EXTENDS: { from: 'Memory', to: 'Memory' },
  RELATED_TO: { from: 'Memory', to: 'Memory' },
  DERIVED_FROM_MEMORY: { from: 'Memory', to: 'Memory' },
} as const satisfies Record<string, EdgeSpec>;

/**
 * A relationship type as stored (`STEP_NEXT` is the seed's `NEXT` between trace steps,
 * `DERIVED_FROM_CONVERSATION` a memory's `DERIVED_FROM` when it names no message,
 * `DERIVED_FROM_MEMORY` a PAM `derived_from` relation to another memory).
 */
export type EdgeKind = keyof typeof EDGES;

/** The relationship type a query sees: kinds stored apart by their ends share one name. */
export function edgeTypeName(kind: EdgeKind): string {
  if (kind === 'STEP_NEXT') return 'NEXT';
  return kind === 'DERIVED_FROM_CONVERSATION' || kind === 'DERIVED_FROM_MEMORY'
    ? 'DERIVED_FROM'
    : kind;
}

/** Every label. */
export const LABEL_NAMES = Object.keys(LABELS) as Label[];
/** Every stored relationship kind. */
export const EDGE_KINDS = Object.keys(EDGES) as EdgeKind[];

/** Labels whose nodes are shared by conversations (one node per path, name or file) and owned by none. */
export const SHARED_LABELS: ReadonlySet<Label> = new Set<Label>([
  'Import',
  'File',
  'Project',
  'GitBranch',
  // Memories live in the bundle's memory-store.json, not in a conversation: deleting or
  // re-importing one leaves them (only their DERIVED_FROM edge goes, and comes back).
  'Memory',
]);
