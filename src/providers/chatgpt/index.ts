import type { Provider } from '../provider.js';
import { asObject, asText } from '../untrusted.js';
import { detectChatgpt } from './detect.js';
import { toChatgptConversation } from './to-conversation.js';
import { addressOf } from '../platform-url.js';
import { toLibraryFile } from './library-files.js';

/** ChatGPT (Settings → Data controls → Export data). */
export const chatgpt: Provider = {
  conversationUrl: (id) => addressOf('https://chatgpt.com/c/', id),
  name: 'chatgpt',
  source: 'chatgpt',
  label: 'ChatGPT',
  product: 'ChatGPT',
  howToExport:
    'Settings → Data controls → Export data; give the .zip (or conversations.json, or the split conversations-000.json …)',
  detect: detectChatgpt,
  toConversation: toChatgptConversation,
  toAccount(raw) {
    const user = asObject(raw);
    const id = asText(user?.id);
    if (!user || id === undefined) return undefined;
    const email = asText(user.email);
    return email !== undefined ? { id, email } : { id };
  },
  toLibraryFile,
  toAssetNames(raw) {
    // conversation_asset_file_names.json: {"file-0HD….dat": "dalle-generations/bdd5….webp"}.
    const names = asObject(raw) ?? {};
    return Object.entries(names).flatMap(([dat, original]) =>
      typeof original === 'string' ? [[dat, original] as [string, string]] : [],
    );
  },
};
