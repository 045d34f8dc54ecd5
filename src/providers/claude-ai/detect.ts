import type { Detection } from '../provider.js';
import { baseName } from '../../read/entry.js';

const CHAT_MESSAGES = /"chat_messages"\s*:/;

/** Claims Claude.ai export files by name and content. */
export function detectClaude(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  const folder = path.toLowerCase();
  if (CHAT_MESSAGES.test(head)) {
    if (name.endsWith('.jsonl'))
      return { role: 'conversations', format: { kind: 'jsonl' }, variant: 'jsonl' };
    if (!name.endsWith('.json')) return undefined;
    const trimmed = head.replace(/^\uFEFF/, '').trimStart();
    return {
      role: 'conversations',
      format: { kind: 'json', streamKeys: ['conversations'] },
      variant: trimmed.startsWith('[') ? 'array' : 'single-object',
    };
  }
  // Since 2026 the download is `manifest-<uuid>-…-<time>.json`, links to the zips it lists.
  if (/^manifest([-_].*)?\.json$/.test(name) && /\.zip\b/i.test(head)) {
    return { role: 'manifest', format: { kind: 'json' }, variant: 'delivery-manifest' };
  }
  if (name === 'users.json' && /"uuid"\s*:/.test(head)) {
    return { role: 'account', format: { kind: 'json' }, variant: 'users.json' };
  }
  if (
    name === 'memories.json' &&
    /"(conversations_memory|project_memories|account_uuid)"/.test(head)
  ) {
    return { role: 'memories', format: { kind: 'json' }, variant: 'memories.json' };
  }
  // projects.json (an array), or the 2026 projects-000.zip with one JSON per project.
  // projects-000.zip given itself holds `<project uuid>.json` at its top, with no folder.
  const projectFile =
    name === 'projects.json' ||
    /(^|\/)projects(-\d+)?(\.zip)?\//.test(folder) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/.test(name);
  if (
    projectFile &&
    name.endsWith('.json') &&
    /"uuid"\s*:/.test(head) &&
    /"(prompt_template|docs|is_private|is_starter_project)"/.test(head)
  ) {
    return { role: 'projects', format: { kind: 'json' }, variant: 'projects' };
  }
  return undefined;
}
