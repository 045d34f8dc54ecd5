import { stableId } from '../../model/ids.js';
import { toMemory } from '../../model/memory.js';
import type { Memory } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { ConversionContext, EntryRole } from '../provider.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';

const EPOCH = '1970-01-01T00:00:00.000000Z';

/** Turns a `memories.json` element or a project into PAM memories. */
export function toClaudeMemories(
  raw: unknown,
  role: EntryRole,
  context: ConversionContext,
): Memory[] {
  const object = asObject(raw);
  if (!object) {
    context.report({
      level: 'error',
      code: 'malformed-record',
      message: `a ${role} record is not an object; skipped`,
      record: context.record,
    });
    return [];
  }
  return role === 'projects' ? projectMemories(object, context) : accountMemories(object, context);
}

// memories.json: [{conversations_memory, project_memories: {uuid: text}, account_uuid}] (2025),
// a bare object since 2026.
function accountMemories(object: Record<string, unknown>, context: ConversionContext): Memory[] {
  const account = asText(object.account_uuid);
  const createdAt = context.fallbackTime ?? EPOCH;
  const memories: Memory[] = [];
  const general = asText(object.conversations_memory);
  if (general !== undefined && general.trim() !== '') {
    memories.push(
      toMemory({
        id: stableId('memory', 'claude', 'conversations_memory', account ?? ''),
        type: 'context',
        content: general,
        summary: 'Claude’s memory from past conversations',
        tags: ['claude-memory'],
        createdAt,
        platform: 'claude',
        platformUserId: account,
      }),
    );
  }
  for (const [project, text] of Object.entries(asObject(object.project_memories) ?? {})) {
    if (typeof text !== 'string' || text.trim() === '') continue;
    memories.push(
      toMemory({
        id: stableId('memory', 'claude', 'project_memory', project),
        type: 'project',
        content: text,
        summary: `Claude’s memory of project ${project}`,
        tags: ['claude-project-memory'],
        createdAt,
        platform: 'claude',
        platformUserId: account,
        metadata: { project_uuid: project },
      }),
    );
  }
  return memories;
}

function projectMemories(project: Record<string, unknown>, context: ConversionContext): Memory[] {
  const uuid = asText(project.uuid) ?? '';
  const name = asText(project.name) ?? null;
  const createdAt = toTimestamp(project.created_at) ?? context.fallbackTime ?? EPOCH;
  const updatedAt = toTimestamp(project.updated_at);
  const creator = asText(asObject(project.creator)?.uuid);
  const sections = [
    name !== null ? `Project: ${name}` : undefined,
    asText(project.description),
    asText(project.prompt_template) !== undefined
      ? `Instructions:\n${asString(project.prompt_template) ?? ''}`
      : undefined,
  ].filter((s): s is string => s !== undefined && s.trim() !== '');
  const memories: Memory[] = [];
  if (sections.length > 0) {
    memories.push(
      toMemory({
        id: stableId('memory', 'claude', 'project', uuid),
        type: 'project',
        content: sections.join('\n\n'),
        summary: name ?? undefined,
        tags: ['claude-project'],
        createdAt,
        updatedAt,
        platform: 'claude',
        platformUserId: creator,
        metadata: {
          project_uuid: uuid,
          // Each part again on its own, for the graph's Project node (platform-projects.ts);
          // left out when empty, as PAM's checksum over the memories reads them (no nulls).
          ...present({
            name,
            description: asText(project.description),
            instructions: asString(project.prompt_template),
          }),
          is_private: project.is_private ?? null,
          is_starter_project: project.is_starter_project ?? null,
        },
      }),
    );
  }
  for (const item of asArray(project.docs) ?? []) {
    const doc = asObject(item);
    const content = asString(doc?.content);
    if (!doc || content === undefined || content.trim() === '') continue;
    memories.push(
      toMemory({
        id: stableId(
          'memory',
          'claude',
          'project-doc',
          uuid,
          asText(doc.uuid) ?? asText(doc.filename) ?? '',
        ),
        type: 'project',
        content,
        summary: asText(doc.filename),
        tags: ['claude-project-doc'],
        createdAt: toTimestamp(doc.created_at) ?? createdAt,
        platform: 'claude',
        platformUserId: creator,
        metadata: { project_uuid: uuid, filename: doc.filename ?? null },
      }),
    );
  }
  return memories;
}

function present(parts: Record<string, string | null | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(parts))
    if (value !== null && value !== undefined && value.trim() !== '') kept[key] = value;
  return kept;
}
