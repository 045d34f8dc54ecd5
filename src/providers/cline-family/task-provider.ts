import { baseName } from '../../read/entry.js';
import type { AgentLocation, Detection, Provider } from '../provider.js';
import { extensionStorage } from '../vscode-storage.js';
import { TASK_SIDE_FILES } from './task-side.js';
import { toTaskConversation } from './to-conversation.js';

/** One agent of the Cline family: its names and the VS Code extension that keeps its tasks. */
export interface TaskAgent {
  name: string;
  label: string;
  product: string;
  /** The extension's id (`saoudrizwan.claude-dev`), the folder of its global storage. */
  extensionId: string;
  /** Where else it keeps its tasks (Cline's own `~/.cline/data/tasks`). */
  locations?: AgentLocation[];
  /** The path segment of those other places (`.cline/`), telling its tasks apart by path. */
  homeMark?: string;
  /** Whether it claims a task whose path names no agent (Cline, the family's first). */
  byDefault?: boolean;
  /** Whether it claims a task in Roo Code's `{version: 2}` format when no path says. */
  versionTwo?: boolean;
}

/** Every agent of the family, to tell a task's agent from the path it is kept under. */
const FAMILY: TaskAgent[] = [];

/**
 * A provider of the Cline family (Cline, Roo Code, Kilo Code: one task folder each, the same
 * files): its task is the one kept under its extension's folder, or, found elsewhere (a task
 * folder given alone), the family's first unless the history is in Roo Code's 2026 format.
 */
export function taskProvider(agent: TaskAgent): Provider {
  FAMILY.push(agent);
  return {
    name: agent.name,
    source: agent.name,
    label: agent.label,
    product: agent.product,
    howToExport: `nothing to export; chatgraph import --agents reads the ${agent.extensionId} tasks in the global storage of VS Code (and Cursor, VSCodium, Windsurf…); or give a task folder (tasks/<id>/) or the tasks folder`,
    fileTools: {
      read: ['read_file', 'simple_read_file'],
      modify: [
        'write_to_file',
        'replace_in_file',
        'apply_diff',
        'multi_apply_diff',
        'insert_content',
        'search_and_replace',
        'edit_file',
      ],
    },
    agent: {
      writes: 'rewrite',
      locations: [...extensionStorage(agent.extensionId, 'tasks'), ...(agent.locations ?? [])],
    },
    detect: (path, head, where) => detectTask(agent, path, head, where),
    toConversation: (raw, variant, context) =>
      toTaskConversation(
        raw,
        { provider: agent.name, assistantName: agent.product },
        variant,
        context,
      ),
  };
}

function detectTask(
  agent: TaskAgent,
  path: string,
  head: string,
  where: string | undefined,
): Detection | undefined {
  const name = baseName(path);
  if (name !== 'api_conversation_history.json' && name !== 'claude_messages.json') return undefined;
  if (!/^\s*[[{]/.test(head)) return undefined;
  const place = `${where ?? ''}/${path}`.replace(/\\/g, '/');
  const owner = FAMILY.find(
    (a) =>
      place.includes(`/${a.extensionId}/`) ||
      (a.homeMark !== undefined && place.includes(a.homeMark)),
  );
  const versionTwo = /^\s*\{\s*"version"\s*:\s*2\b/.test(head);
  const mine =
    owner !== undefined
      ? owner === agent
      : versionTwo
        ? agent.versionTwo === true
        : agent.byDefault === true;
  if (!mine) return undefined;
  return {
    role: 'conversations',
    format: { kind: 'file-set', main: 'json-file', with: TASK_SIDE_FILES },
    variant: versionTwo ? 'task/v2' : 'task',
  };
}
