import type { Conversation, JsonObject, Memory } from '../model/pam.js';
import { asObject } from '../providers/untrusted.js';
import type { GraphBatch, GraphEdge, GraphNode } from './graph-batch.js';

/**
 * A Claude.ai project as the graph holds it. The bundle records a project as memories (PAM has
 * no project object): the project itself (`claude-project`: name, description, instructions)
 * and one memory a document (`claude-project-doc`), tied by `metadata.project_uuid`. Each project
 * becomes its own batch, owned by `claude-ai-project:{uuid}`, so a re-import replaces it whole.
 */
const OWNER_PREFIX = 'claude-ai-project:';
const SOURCE = 'claude-ai';

/** The Project node id of a Claude.ai project, shared by its batch and its conversations'. */
export function platformProjectId(uuid: string): string {
  return `project:${SOURCE}:${uuid}`;
}

interface ProjectParts {
  uuid: string;
  project?: Memory;
  documents: Memory[];
}

function text(metadata: JsonObject | undefined, key: string): string | null {
  const value = metadata?.[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The memories' projects as graph batches (none when the bundle holds no Claude.ai project). */
export function projectPlatformProjects(memories: readonly Memory[]): GraphBatch[] {
  const projects = new Map<string, ProjectParts>();
  for (const memory of memories) {
    // A memory a person retracted or replaced is not the project's any more.
    if (memory.status !== 'active' || memory.provenance.platform !== 'claude') continue;
    const uuid = text(memory.metadata, 'project_uuid');
    const isProject = memory.tags.includes('claude-project');
    const isDocument = memory.tags.includes('claude-project-doc');
    if (uuid === null || (!isProject && !isDocument)) continue;
    let parts = projects.get(uuid);
    if (!parts) {
      parts = { uuid, documents: [] };
      projects.set(uuid, parts);
    }
    if (isProject) parts.project = memory;
    else parts.documents.push(memory);
  }
  return [...projects.values()]
    .sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0))
    .map(projectBatch);
}

function projectBatch(parts: ProjectParts): GraphBatch {
  const owner = `${OWNER_PREFIX}${parts.uuid}`;
  const projectId = platformProjectId(parts.uuid);
  const metadata = parts.project?.metadata;
  const name = text(metadata, 'name') ?? parts.project?.summary ?? null;
  const nodes: GraphNode[] = [
    {
      label: 'Project',
      id: projectId,
      properties: {
        path: null,
        name,
        source: SOURCE,
        project_id: parts.uuid,
        description: text(metadata, 'description'),
        instructions: text(metadata, 'instructions'),
      },
    },
  ];
  const edges: GraphEdge[] = [];
  const documents = [...parts.documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  documents.forEach((memory, n) => {
    const id = `${owner}:document-${n}`;
    const filename = text(memory.metadata, 'filename') ?? memory.summary ?? `document ${n + 1}`;
    nodes.push({
      label: 'Document',
      id,
      properties: {
        title: `Claude AI project ${name ?? parts.uuid}: ${filename}`,
        content: memory.content,
        template_id: 'project-document',
        template_name: 'Claude AI Project Document',
        conversation_id: null,
        source: SOURCE,
        created_at: memory.temporal.created_at,
      },
    });
    edges.push({ kind: 'HAS_PROJECT_DOCUMENT', from: projectId, to: id });
  });
  return { owner, nodes, edges };
}

/** A conversation's project, as far as its record tells. */
export interface ConversationProject {
  /** The Project node's id. */
  id: string;
  source: string;
  uuid: string;
  name: string | null;
}

/**
 * The project a conversation belongs to, when the record says so. Claude.ai: the official
 * export does not (its conversations carry no project id), but conversations saved from the web
 * app's API have `project_uuid` or `project: {uuid, name}`, which stay in `raw_metadata`.
 * ChatGPT: a conversation of a project has a `gizmo_id` starting `g-p-` (custom GPTs have
 * `g-…`); the export does not name the project.
 */
export function conversationProject(conversation: Conversation): ConversationProject | undefined {
  const raw = conversation.raw_metadata;
  if (conversation.provider.name === 'chatgpt') {
    const gizmo = text(raw, 'gizmo_id');
    if (gizmo === null || !gizmo.startsWith('g-p-')) return undefined;
    return { id: `project:chatgpt:${gizmo}`, source: 'chatgpt', uuid: gizmo, name: null };
  }
  if (conversation.provider.name !== 'claude') return undefined;
  const nested = asObject(raw.project);
  const uuid = text(raw, 'project_uuid') ?? text(nested, 'uuid');
  if (uuid === null) return undefined;
  return { id: platformProjectId(uuid), source: SOURCE, uuid, name: text(nested, 'name') };
}
