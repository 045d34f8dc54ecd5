import { baseName } from '../../read/entry.js';
import type { Detection, Provider } from '../provider.js';
import { pamToConversation } from './to-conversation.js';

// The `schema` member names the document; in the files PAM's tools write it comes first, but
// any member order is read (the head is the file's first bytes).
const CONVERSATION = /"schema"\s*:\s*"portable-ai-memory-conversation"/;
const MEMORY_STORE = /"schema"\s*:\s*"portable-ai-memory"/;

// A PAM document is a JSON object: a file that starts otherwise (an export's array) is not one,
// whatever its text quotes.
const OBJECT = /^\uFEFF?\s*\{/;

function detect(path: string, head: string): Detection | undefined {
  if (!OBJECT.test(head)) return undefined;
  const name = baseName(path).toLowerCase();
  if (name.endsWith('.jsonl'))
    return CONVERSATION.test(head)
      ? { role: 'conversations', format: { kind: 'jsonl' }, variant: 'pam/jsonl' }
      : undefined;
  if (CONVERSATION.test(head))
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'pam/conversation' };
  if (MEMORY_STORE.test(head))
    return { role: 'memory-store', format: { kind: 'json-file' }, variant: 'pam/memory-store' };
  return undefined;
}

/**
 * Portable AI Memory itself: a bundle or memory store another tool wrote (the official SDK's
 * `pam convert`, chatgraph's own `convert` or `export-pam`). Each conversation keeps its own
 * platform (`provider.name`), which the graph projects it as.
 */
export const pam: Provider = {
  name: 'pam',
  source: 'pam',
  label: 'PAM',
  product: 'Portable AI Memory',
  howToExport:
    'a PAM bundle another tool wrote (memory-store.json and conversations/*.json, e.g. from the official `pam convert`), a memory store alone, or an incremental export of one; give the folder, zip or files',
  carriesPlatforms: true,
  detect,
  toConversation: (raw, _variant, context) => pamToConversation(raw, context),
};
