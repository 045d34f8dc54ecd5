import type { Detection } from '../provider.js';
import { baseName } from '../../read/entry.js';

const MAPPING = /"mapping"\s*:\s*\{/;
const WRAPPED = /^\s*\{\s*"conversations"\s*:\s*\[/;

/** Claims ChatGPT export files by name and content. */
export function detectChatgpt(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (name === 'user.json' && /"id"\s*:/.test(head) && !MAPPING.test(head)) {
    return { role: 'account', format: { kind: 'json' }, variant: 'user.json' };
  }
  // 2026: the export's logical files and the shards written for them (checked, not converted).
  if (name === 'export_manifest.json') {
    return { role: 'manifest', format: { kind: 'json' }, variant: 'export-manifest' };
  }
  if (name === 'library_files.json') {
    return { role: 'library-files', format: { kind: 'json' }, variant: 'library-files' };
  }
  if (name === 'conversation_asset_file_names.json') {
    return { role: 'asset-names', format: { kind: 'json' }, variant: 'dat-assets' };
  }
  if (!name.endsWith('.json') || !MAPPING.test(head)) return undefined;
  // 2026 exports split conversations.json into conversations-000.json ... (d3i-infra #85).
  const split = /^conversations-\d+\.json$/.test(name);
  const trimmed = head.replace(/^\uFEFF/, '').trimStart();
  const variant = split
    ? 'split-files'
    : trimmed.startsWith('[')
      ? 'array'
      : WRAPPED.test(trimmed)
        ? 'wrapped'
        : 'single-object';
  return {
    role: 'conversations',
    format: { kind: 'json', streamKeys: ['conversations'] },
    variant,
  };
}
