import { downloadLink, platformLink } from './conversation-links.js';
import { type AttachmentView, type MessageView } from './api.js';
import { fetchConversation } from './fetch-conversation.js';
import { count, formatBytes, formatDate, h, hashParams, replace } from './dom.js';
import { similarButton } from './similar-messages.js';
import { renderMarkdown } from './markdown.js';
import { codeBlock } from './code-block.js';
import { deleteButton } from './delete-button.js';
import { messageSources } from './message-sources.js';

/** The tree of a conversation: each message's replies, in stored order. */
class Tree {
  readonly byId = new Map<string, MessageView>();
  readonly children = new Map<string | null, MessageView[]>();

  constructor(messages: MessageView[]) {
    for (const m of messages) this.byId.set(m.id, m);
    for (const m of messages) {
      const parent = m.parentId !== null && this.byId.has(m.parentId) ? m.parentId : null;
      const list = this.children.get(parent);
      if (list) list.push(m);
      else this.children.set(parent, [m]);
    }
  }

  /** The message and its ancestors, root first. */
  ancestry(id: string): MessageView[] {
    const out: MessageView[] = [];
    let at = this.byId.get(id);
    while (at) {
      out.unshift(at);
      at = at.parentId !== null ? this.byId.get(at.parentId) : undefined;
    }
    return out;
  }
}

/**
 * The path shown: from the root, at each fork the chosen reply, else the one on the thread the
 * platform showed, else the latest (a regenerated answer replaces the one before).
 */
function pathOf(tree: Tree, chosen: Map<string | null, string>): MessageView[] {
  const path: MessageView[] = [];
  let parent: string | null = null;
  for (;;) {
    const replies: MessageView[] = tree.children.get(parent) ?? [];
    if (replies.length === 0) return path;
    const pick: MessageView =
      replies.find((m) => m.id === chosen.get(parent)) ??
      replies.find((m) => m.onShownThread || subtreeShown(tree, m)) ??
      (replies[replies.length - 1] as MessageView);
    path.push(pick);
    parent = pick.id;
  }
}

// Hidden and system messages are off the thread's NEXT chain, but may lead to shown ones.
function subtreeShown(tree: Tree, message: MessageView): boolean {
  const stack = [message];
  while (stack.length > 0) {
    const m = stack.pop() as MessageView;
    if (m.onShownThread) return true;
    for (const item of tree.children.get(m.id) ?? []) stack.push(item);
  }
  return false;
}

function folded(summary: string, className: string, ...body: (Node | string)[]): HTMLElement {
  return h('details', { class: className }, h('summary', {}, summary), ...body);
}

function attachmentLink(
  a: AttachmentView,
  conversationId: string,
  label: string = a.name ?? a.ref ?? 'attachment',
): Node | string {
  return a.ref
    ? h(
        'a',
        {
          href: `/api/attachment/${encodeURIComponent(conversationId)}?ref=${encodeURIComponent(a.ref)}`,
          target: '_blank',
          rel: 'noopener',
        },
        label,
      )
    : label;
}

function attachmentFacts(a: AttachmentView): string {
  return ` (${a.type}${a.mime_type ? `, ${a.mime_type}` : ''}${a.size_bytes !== null ? `, ${formatBytes(a.size_bytes)}` : ''}${a.ref ? '' : ', not in the export'})`;
}

// The version a provider names a document's attachment after: a canvas's later versions are
// "<name> (version 2)", the comments made on one "<name> (comments on version 3)".
const VERSIONED = /^(.+) \(((?:comments on )?version \d+)\)$/s;

// A document longer than this opens folded: its heading stays in the thread, its text a click away.
const FOLD_AT = 1200;

/** A document the assistant wrote (a ChatGPT canvas, a deep-research report), in Markdown. */
function isDocument(a: AttachmentView): a is AttachmentView & { text: string } {
  return a.type === 'document' && a.text !== null && a.mime_type === 'text/markdown';
}

// Drawn as the document it is: its name as a heading, the provider's version label beside it,
// its Markdown through the same sanitising renderer as an answer, folded when long.
function documentView(a: AttachmentView & { text: string }, conversationId: string): HTMLElement {
  const name = a.name ?? 'Untitled document';
  const [, title = name, version] = VERSIONED.exec(name) ?? [];
  const text = renderMarkdown(a.text);
  return h(
    'section',
    { class: 'document' },
    h(
      'div',
      { class: 'document-head' },
      h('h2', {}, title),
      version ? h('span', { class: 'document-version' }, version) : null,
      h('span', { class: 'attachments' }, attachmentLink(a, conversationId, 'Download')),
    ),
    a.text.length > FOLD_AT
      ? folded(
          `Show the whole document (${count(a.text.split(/\s+/).filter(Boolean).length)} words)`,
          'document-text',
          text,
        )
      : text,
  );
}

// A document the assistant wrote: drawn as one (above). Other pasted or extracted text: a folded
// block under its name, the text inserted as text (a <pre>), never as HTML or Markdown. Other
// attachments: a list of links.
function attachmentParts(message: MessageView, conversationId: string): Node[] {
  const parts: Node[] = [];
  for (const a of message.attachments) {
    if (a.text === null) continue;
    if (isDocument(a)) {
      parts.push(documentView(a, conversationId));
      continue;
    }
    parts.push(
      folded(
        `Attachment: ${a.name ?? 'pasted text'}${attachmentFacts(a)}`,
        'attachment-text',
        h('pre', {}, a.text),
        h('div', { class: 'attachments' }, attachmentLink(a, conversationId, 'Download')),
      ),
    );
  }
  const files = message.attachments.filter((a) => a.text === null);
  if (files.length > 0) {
    parts.push(
      h(
        'ul',
        { class: 'attachments' },
        ...files.map((a) => h('li', {}, attachmentLink(a, conversationId), attachmentFacts(a))),
      ),
    );
  }
  return parts;
}

function messageBody(message: MessageView, conversationId: string): HTMLElement {
  const parts: Node[] = [];
  const text = message.content;
  const cited = messageSources(message);
  // The server says what is drawn once (a text a tool call shows as its input is not drawn).
  if (!message.textShown) {
    // Shown by its tool call below.
  } else if (message.isThought) {
    parts.push(folded('Thinking', 'thought', renderMarkdown(text)));
  } else if (message.role === 'tool') {
    parts.push(folded('Tool result', 'tool-result', h('pre', {}, text)));
  } else if (message.hidden || message.role === 'system') {
    parts.push(
      folded(
        message.role === 'system' ? 'System message' : 'Hidden context',
        'hidden-context',
        h('pre', {}, text),
      ),
    );
  } else if (message.code !== null) {
    parts.push(codeBlock(text, message.code.language));
  } else if (message.role === 'user') {
    parts.push(h('div', { class: 'plain' }, text));
  } else if (text) {
    const rendered = renderMarkdown(text);
    cited.linkReferences(rendered);
    parts.push(rendered);
  }
  for (const call of message.toolCalls) {
    parts.push(
      folded(
        `Tool call: ${call.name}${call.isError ? ' (error)' : ''}`,
        'tool-call',
        ...(call.input !== null
          ? [
              h('div', { class: 'label' }, 'Input'),
              codeBlock(call.input, call.inputLanguage ?? message.code?.language ?? null),
            ]
          : [h('div', { class: 'label' }, call.inputAbove ? 'Input: the text above' : 'No input')]),
        ...(call.output !== null
          ? [h('div', { class: 'label' }, 'Output'), h('pre', {}, call.output)]
          : []),
      ),
    );
  }
  for (const item of attachmentParts(message, conversationId)) parts.push(item);
  parts.push(...cited.list());
  const body = h('div', { class: 'body' });
  body.append(...parts);
  return body;
}

const FIRST_SLICE = 12;
const SLICE = 40;

type Conversation = Awaited<ReturnType<typeof fetchConversation>>['conversation'];

/** Picks the reply shown after a fork and redraws the thread. */
type Choose = (parent: string | null, id: string) => void;

/** ‹ n / m ›: moves between the replies to the same message; null when there is only one. */
function branchSwitcher(tree: Tree, message: MessageView, choose: Choose): HTMLElement | null {
  const parent =
    message.parentId !== null && tree.byId.has(message.parentId) ? message.parentId : null;
  const siblings = tree.children.get(parent) ?? [];
  const at = siblings.indexOf(message);
  if (siblings.length <= 1) return null;
  return h(
    'span',
    { class: 'branch-switcher', 'data-parent': parent ?? '' },
    h(
      'button',
      {
        type: 'button',
        class: 'branch-prev',
        'aria-label': 'Previous branch',
        disabled: at === 0,
        onclick: () => {
          choose(parent, (siblings[at - 1] as MessageView).id);
        },
      },
      '‹',
    ),
    h('span', { class: 'branch-position' }, `${at + 1} / ${siblings.length}`),
    h(
      'button',
      {
        type: 'button',
        class: 'branch-next',
        'aria-label': 'Next branch',
        disabled: at === siblings.length - 1,
        onclick: () => {
          choose(parent, (siblings[at + 1] as MessageView).id);
        },
      },
      '›',
    ),
  );
}

/** One message: who and when, its branch switcher and similar-messages button, then its body. */
function messageArticle(
  message: MessageView,
  tree: Tree,
  focus: string | null,
  conversationId: string,
  choose: Choose,
): HTMLElement {
  const similar = similarButton(message.id);
  return h(
    'article',
    {
      class: `message role-${message.role}${message.id === focus ? ' focus' : ''}${message.onShownThread ? '' : ' off-thread'}`,
      id: `m-${message.id}`,
      'data-message-id': message.id,
    },
    h(
      'header',
      {},
      h('span', { class: 'role' }, message.isThought ? 'thinking' : message.role),
      message.model ? h('span', { class: 'model' }, message.model) : null,
      h('time', { datetime: message.createdAt }, formatDate(message.createdAt, true)),
      branchSwitcher(tree, message, choose),
      similar.button,
    ),
    messageBody(message, conversationId),
    similar.panel,
  );
}

/** The title and what the conversation is, with links to its graph, the platform, downloads and delete. */
function conversationHead(
  conversation: Conversation,
  url: string | null,
  focus: string | null,
): HTMLElement {
  return h(
    'div',
    { class: 'conversation-head' },
    h('h1', {}, conversation.name),
    h(
      'p',
      { class: 'meta' },
      h('span', { class: `source source-${conversation.source}` }, conversation.source),
      ` · ${formatDate(conversation.createdAt, true)} · ${count(conversation.messageCount)} messages · `,
      h(
        'a',
        {
          id: 'open-graph',
          href: `#/graph/${encodeURIComponent(conversation.id)}${focus ? `?message=${encodeURIComponent(focus)}` : ''}`,
        },
        'Graph',
      ),
      ' · ',
      ...(url ? [platformLink(url), ' · '] : []),
      downloadLink(conversation, 'markdown', 'Download as Markdown'),
      ' · ',
      downloadLink(conversation, 'html', 'as HTML'),
      ' · ',
      deleteButton(conversation),
    ),
  );
}

/**
 * The message `?m=` names: its whole id, or (typed short, as `thread` prints it) the one
 * message whose id or own part (after the conversation's id) starts with it, 8 characters at least.
 */
function focusOf(given: string | null, messages: readonly MessageView[]): string | null {
  if (given === null || messages.some((m) => m.id === given) || given.length < 8) return given;
  const found = messages.filter(
    (m) => m.id.startsWith(given) || m.id.slice(m.id.indexOf(':') + 1).startsWith(given),
  );
  return found.length === 1 && found[0] ? found[0].id : given;
}

/** A conversation as the assistant showed it, with a switcher at each fork. */
export async function showConversation(view: HTMLElement, id: string): Promise<void> {
  const { conversation, url, messages } = await fetchConversation(id);
  const tree = new Tree(messages);
  const chosen = new Map<string | null, string>();
  const focus = focusOf(hashParams().get('m'), messages);
  // A message off the shown thread (a search hit in an old branch): choose its branch.
  if (focus && tree.byId.has(focus)) {
    for (const m of tree.ancestry(focus))
      chosen.set(m.parentId !== null && tree.byId.has(m.parentId) ? m.parentId : null, m.id);
  }
  const thread = h('div', { class: 'thread' });
  // Long conversations are drawn in slices: the first screenful (or up to the message to show)
  // at once, the rest between frames, so the page is readable before thousands of messages
  // are rendered. A redraw (a branch switch) abandons the slices of the one before.
  let generation = 0;
  const choose = (parent: string | null, id: string): void => {
    chosen.set(parent, id);
    draw();
  };
  const draw = (): void => {
    const path = pathOf(tree, chosen);
    const mine = ++generation;
    replace(thread);
    const focusAt = focus ? path.findIndex((m) => m.id === focus) : -1;
    let next = 0;
    const drawUntil = (end: number): void => {
      const slice = path.slice(next, end);
      next = Math.min(end, path.length);
      thread.append(...slice.map(article));
    };
    drawUntil(Math.max(FIRST_SLICE, focusAt + 5));
    const more = (): void => {
      if (mine !== generation || next >= path.length) {
        if (mine === generation) thread.dataset.complete = 'true';
        return;
      }
      drawUntil(next + SLICE);
      window.setTimeout(more, 0);
    };
    delete thread.dataset.complete;
    more();
  };
  const article = (message: MessageView): HTMLElement =>
    messageArticle(message, tree, focus, conversation.id, choose);
  draw();
  replace(view, conversationHead(conversation, url, focus), thread);
  if (focus) document.getElementById(`m-${focus}`)?.scrollIntoView({ block: 'center' });
}
