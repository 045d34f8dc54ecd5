import { readFileSync } from 'node:fs';
import type { ConversationView } from '../conversation-view/conversation-view.js';
import type { Conversation } from '../model/pam.js';
import { conversationStem } from './file-names.js';
import { ARCHIVE_CSS, conversationHtml } from './render-html.js';
import { renderConversationMarkdown } from './render-markdown.js';

/** One conversation as one file a person downloads: its name and text. */
export interface RenderedConversation {
  fileName: string;
  mimeType: string;
  text: string;
}

let css: string | undefined;

// The web app's style sheet, read once: a downloaded page carries it inline.
function styleSheet(): string {
  css ??= `${readFileSync(new URL('../web/client/style.css', import.meta.url), 'utf8')}\n${ARCHIVE_CSS}`;
  return css;
}

/**
 * A conversation as one self-contained file: a Markdown note (attachments listed, not copied),
 * or an HTML page with its style inline and no script, as `export` renders them.
 */
export function renderConversation(
  view: ConversationView,
  pam: Conversation | undefined,
  format: 'markdown' | 'html',
): RenderedConversation {
  const stem = conversationStem(
    view.conversation.title ?? view.conversation.name,
    view.conversation.id,
  );
  if (format === 'markdown')
    return {
      fileName: `${stem}.md`,
      mimeType: 'text/markdown; charset=utf-8',
      text: renderConversationMarkdown(view, pam, {
        style: 'markdown',
        attachmentLink: () => null,
      }),
    };
  return {
    fileName: `${stem}.html`,
    mimeType: 'text/html; charset=utf-8',
    text: conversationHtml(view, () => null, { inlineStyle: styleSheet() }),
  };
}
