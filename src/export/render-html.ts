import { createHash } from 'node:crypto';
import { Marked, type Tokens } from 'marked';
import type { ConversationView, MessageView } from '../conversation-view/conversation-view.js';
import {
  contextLabel,
  escapeHtml,
  isContext,
  readableTime,
  splitBranches,
  type Branch,
} from './render-markdown.js';

/**
 * The archive's pages allow nothing remote: no script, style, image or connection that is not a
 * file of the archive itself. (`file:` because Chromium does not count sibling files of a page
 * opened from disk as 'self'.)
 */
export const ARCHIVE_CSP =
  "default-src 'none'; script-src 'self' file:; style-src 'self' file:; img-src 'self' file: data:; base-uri 'none'; form-action 'none'";

const safeHref = (href: string): string | null =>
  /^(https?:|mailto:|#)/i.test(href.trim()) ? escapeHtml(href.trim()) : null;

// Chat text as the web app shows it (GitHub Markdown), but rendered here without a DOM to
// sanitise: raw HTML is shown as text, links only to the web or mail, and images become links
// (an image from the web would be a request leaving the page).
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    image(token: Tokens.Image): string {
      const href = safeHref(token.href);
      const text = escapeHtml(token.text || token.href);
      return href !== null
        ? `<a href="${href}" rel="noopener noreferrer">[image: ${text}]</a>`
        : `[image: ${text}]`;
    },
    // The web app's code block (figure, caption naming the language), without its highlighter.
    code(token: Tokens.Code): string {
      const language = token.lang?.trim().split(/\s/)[0] || null;
      return codeBlock(token.text, language);
    },
    link(token: Tokens.Link): string {
      const inner = this.parser.parseInline(token.tokens);
      const href = safeHref(token.href);
      return href !== null ? `<a href="${href}" rel="noopener noreferrer">${inner}</a>` : inner;
    },
  },
});

/** Chat text (Markdown) as safe HTML. */
export function markdownHtml(text: string): string {
  return marked.parse(text) as string;
}

/** A page on its own (downloaded): its style inline, allowed by its hash; still no script. */
function standaloneCsp(style: string): string {
  const hash = createHash('sha256').update(style).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

function page(
  title: string,
  depth: string,
  body: string,
  scripts: string[] = [],
  inlineStyle?: string,
): string {
  const styles =
    inlineStyle !== undefined
      ? `<style>${inlineStyle}</style>`
      : `<link rel="stylesheet" href="${depth}assets/style.css">
<link rel="stylesheet" href="${depth}assets/archive.css">`;
  const csp = inlineStyle !== undefined ? standaloneCsp(inlineStyle) : ARCHIVE_CSP;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
${styles}
</head>
<body>
${body}
${scripts.map((s) => `<script src="${depth}${s}"></script>`).join('\n')}
</body>
</html>
`;
}

function codeBlock(text: string, language: string | null): string {
  return `<figure class="code-block"><figcaption><span class="code-language">${escapeHtml(language ?? 'text')}</span></figcaption><pre tabindex="0"><code${language !== null ? ` class="language-${escapeHtml(language)}"` : ''}>${escapeHtml(text)}</code></pre></figure>`;
}

const pre = codeBlock;

function messageHtml(message: MessageView, attachmentLink: (ref: string) => string | null): string {
  const head = [
    `<span class="role">${escapeHtml(message.role)}</span>`,
    message.model !== null ? `<span class="model">${escapeHtml(message.model)}</span>` : '',
    `<time datetime="${escapeHtml(message.createdAt)}">${escapeHtml(readableTime(message.createdAt))}</time>`,
  ].join(' ');
  const parts: string[] = [];
  if (message.textShown) {
    const body = message.code
      ? pre(message.content, message.code.language)
      : `<div class="markdown">${markdownHtml(message.content)}</div>`;
    parts.push(
      message.isThought
        ? `<details class="thinking"><summary>Thinking</summary>${body}</details>`
        : isContext(message)
          ? `<details class="hidden-context"><summary>${contextLabel(message)}</summary>${body}</details>`
          : body,
    );
  }
  for (const call of message.toolCalls) {
    parts.push(
      `<details class="tool-call"><summary>Tool call: ${escapeHtml(call.name)}${call.isError ? ' (failed)' : ''}</summary>${call.input !== null ? pre(call.input, call.inputLanguage) : ''}${call.output !== null ? `<p>${call.isError ? 'Error' : 'Output'}:</p>${pre(call.output, null)}` : ''}</details>`,
    );
  }
  for (const attachment of message.attachments) {
    const name = escapeHtml(attachment.name ?? attachment.ref ?? attachment.type);
    const link = attachment.ref !== null ? attachmentLink(attachment.ref) : null;
    parts.push(
      `<div class="attachment">📎 ${link !== null ? `<a href="${escapeHtml(link)}">${name}</a>` : name}${attachment.text !== null ? `<details><summary>text</summary>${pre(attachment.text, null)}</details>` : ''}</div>`,
    );
  }
  if (message.citations.length > 0)
    parts.push(
      `<ol class="citations">${message.citations
        .map((c) => {
          const href = c.url !== null ? safeHref(c.url) : null;
          const title = escapeHtml(c.title ?? c.url ?? 'source');
          return `<li>${href !== null ? `<a href="${href}" rel="noopener noreferrer">${title}</a>` : title}${c.snippet ? ` — ${escapeHtml(c.snippet)}` : ''}</li>`;
        })
        .join('')}</ol>`,
    );
  return `<article class="message role-${escapeHtml(message.role)}${message.hidden ? ' hidden-message' : ''}" id="m-${escapeHtml(message.id.split(':').at(-1) ?? message.id)}"><header>${head}</header>${parts.join('\n')}</article>`;
}

/** A conversation's page: its shown thread, a note at each fork, then its other branches. */
export function conversationHtml(
  view: ConversationView,
  attachmentLink: (ref: string) => string | null,
  options: { inlineStyle?: string } = {},
): string {
  const info = view.conversation;
  const title = info.title ?? info.name;
  const { shown, branches } = splitBranches(view.messages);
  const forks = new Map<string, Branch[]>();
  for (const branch of branches) {
    const key = branch.forkAfter?.id ?? '';
    forks.set(key, [...(forks.get(key) ?? []), branch]);
  }
  const forkNotes = (key: string): string =>
    (forks.get(key) ?? [])
      .map(
        (b) =>
          `<p class="fork">⑂ Another branch forks here: <a href="#branch-${String(b.number)}">Branch ${String(b.number)}</a> (${String(b.messages.length)} ${b.messages.length === 1 ? 'message' : 'messages'})</p>`,
      )
      .join('');
  const thread = [
    forkNotes(''),
    ...shown.map((m) => messageHtml(m, attachmentLink) + forkNotes(m.id)),
  ].join('\n');
  const others = branches
    .map(
      (b) =>
        `<section class="branch" id="branch-${String(b.number)}"><h2>Branch ${String(b.number)}</h2><p>${b.forkAfter ? `Forks after the ${escapeHtml(b.forkAfter.role)} message of ${escapeHtml(readableTime(b.forkAfter.createdAt))}` : 'An alternative to the conversation’s first message'}.</p><div class="thread">${b.messages.map((m) => messageHtml(m, attachmentLink)).join('\n')}</div></section>`,
    )
    .join('\n');
  const url = view.url;
  const body = `<main>
${options.inlineStyle === undefined ? '<nav class="archive-nav"><a href="../index.html">← all conversations</a></nav>' : ''}
<header class="conversation-head"><h1>${escapeHtml(title)}</h1><p class="meta">${escapeHtml(info.source)} · ${escapeHtml(readableTime(info.createdAt))} · ${String(info.messageCount)} messages${url !== null ? ` · <a href="${escapeHtml(url)}" rel="noopener noreferrer">open on the platform</a>` : ''}</p></header>
<div class="thread">${thread}</div>
${others}
</main>`;
  return page(title, '../', body, [], options.inlineStyle);
}

/** One row of the archive's list. */
export interface ArchiveRow {
  href: string;
  title: string;
  source: string;
  createdAt: string;
  messages: number;
}

/** The archive's front page: a search box and every conversation, newest first. */
export function indexHtml(rows: readonly ArchiveRow[]): string {
  const sorted = [...rows].sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0,
  );
  const items = sorted
    .map(
      (r) =>
        `<li data-href="${escapeHtml(r.href)}"><a href="${escapeHtml(r.href)}">${escapeHtml(r.title)}</a> <span class="meta">${escapeHtml(r.source)} · ${escapeHtml(r.createdAt.slice(0, 10))} · ${String(r.messages)} messages</span></li>`,
    )
    .join('\n');
  const body = `<main>
<header class="conversation-head"><h1>Conversations</h1><p class="meta">${String(rows.length)} conversations, exported by chatgraph</p>
<label>Search <input id="archive-search" type="search" autocomplete="off" placeholder="words in the conversations"></label>
<p id="archive-count" class="meta" aria-live="polite"></p></header>
<ul id="archive-list" class="archive-list">
${items}
</ul>
</main>`;
  return page('Conversations', '', body, ['assets/search-index.js', 'assets/archive.js']);
}

/** The archive's own script: filters the list by the prebuilt word index (no request). */
export const ARCHIVE_JS = `'use strict';
(function () {
  var index = window.CHATGRAPH_SEARCH || [];
  var words = {};
  index.forEach(function (entry) { words[entry.p] = ' ' + entry.w + ' ' + entry.t.toLowerCase() + ' '; });
  var input = document.getElementById('archive-search');
  var count = document.getElementById('archive-count');
  var items = Array.prototype.slice.call(document.querySelectorAll('#archive-list li'));
  function run() {
    var terms = input.value.toLowerCase().split(/[^\\p{L}\\p{N}_]+/u).filter(Boolean);
    var shown = 0;
    items.forEach(function (li) {
      var text = words[li.getAttribute('data-href')] || '';
      var hit = terms.every(function (t) { return text.indexOf(' ' + t) !== -1; });
      li.hidden = !hit;
      if (hit) shown++;
    });
    count.textContent = terms.length === 0 ? '' : shown + (shown === 1 ? ' conversation matches' : ' conversations match');
  }
  input.addEventListener('input', run);
})();
`;

/** What the archive adds to the web app's style sheet. */
export const ARCHIVE_CSS = `main { padding: 1rem; }
.archive-list { max-width: 44rem; margin-inline: auto; list-style: none; padding: 0; }
.archive-list li { padding: 0.4rem 0; border-bottom: 1px solid var(--line); }
.archive-list .meta, .meta { color: var(--muted); font-size: 0.85rem; }
.archive-nav { max-width: 44rem; margin-inline: auto; }
.fork { color: var(--muted); font-size: 0.85rem; margin-left: 1rem; }
.branch { max-width: 44rem; margin: 2rem auto 0; }
details.tool-call, details.thinking { margin: 0.4rem 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--code-bg); padding: 0.5rem; }
.hidden-message { opacity: 0.7; }
`;

/** The words of a conversation for the archive's search: each once, lower case. */
export function searchWords(view: ConversationView): string {
  const words = new Set<string>();
  const add = (text: string | null): void => {
    if (text === null) return;
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}_]+/u))
      if (word !== '') words.add(word);
  };
  add(view.conversation.title);
  for (const m of view.messages) {
    add(m.content);
    for (const call of m.toolCalls) {
      add(call.input);
      add(call.output);
    }
    for (const a of m.attachments) add(a.text);
  }
  return [...words].join(' ');
}
