import type { Provider } from '../provider.js';
import { asArray, asObject, asText } from '../untrusted.js';
import { detectClaude } from './detect.js';
import { toClaudeConversation } from './to-conversation.js';
import { toClaudeMemories } from './to-memories.js';
import { addressOf } from '../platform-url.js';

/** Claude.ai (Settings → Privacy → Export data). */
export const claudeAi: Provider = {
  conversationUrl: (id) => addressOf('https://claude.ai/chat/', id),
  name: 'claude',
  source: 'claude-ai',
  label: 'Claude AI',
  product: 'Claude.ai',
  howToExport:
    'Settings → Privacy → Export data; give the .zip (with or without its extension), the 2026 manifest with the files it links to (downloaded, or their folder), the data-…-batch zips, or conversations.json(l)',
  detect: detectClaude,
  toConversation: toClaudeConversation,
  toMemories: toClaudeMemories,
  toAccount(raw) {
    // users.json is an array of one user; the splitter hands over its elements.
    const user = asObject(raw) ?? asObject(asArray(raw)?.[0]);
    const id = asText(user?.uuid);
    if (!user || id === undefined) return undefined;
    const account: { id: string; name?: string; email?: string } = { id };
    const name = asText(user.full_name);
    const email = asText(user.email_address);
    if (name !== undefined) account.name = name;
    if (email !== undefined) account.email = email;
    return account;
  },
};
