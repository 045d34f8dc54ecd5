import type { ConversationView, MessageView } from '../conversation-view/conversation-view.js';
import type { Conversation } from '../model/pam.js';
import { frontmatter, obsidianTag } from './frontmatter.js';

/** Plain Markdown, or an Obsidian note (callouts, properties, wikilinks). */
export type MarkdownStyle = 'markdown' | 'obsidian';

/** What a rendering needs besides the conversation: where its files went, its neighbours. */
export interface MarkdownContext {
  style: MarkdownStyle;
  /** The link (relative to the note) of an attachment copied beside it, or null. */
  attachmentLink(ref: string): string | null;
  /** Conversations close in meaning: their note names (Obsidian wikilinks). */
  related?: readonly string[];
}

/** A conversation's frontmatter fields (the same keys in both styles). */
export function conversationFields(
  view: ConversationView,
  pam: Conversation | undefined,
  style: MarkdownStyle,
): Record<string, unknown> {
  const info = view.conversation;
  const models = [...new Set(view.messages.map((m) => m.model).filter((m) => m !== null))];
  const own = pam?.tags ?? [];
  const tags =
    style === 'obsidian'
      ? [
          ...new Set(
            ['chatgraph', `source/${info.source}`, ...own]
              .map(obsidianTag)
              .filter((t) => t !== undefined),
          ),
        ]
      : own;
  return {
    title: info.title ?? info.name,
    source: info.source,
    url: noteLinkTarget(view.url) ?? undefined,
    id: info.id,
    platform_id: info.platformId,
    created: info.createdAt,
    updated: info.updatedAt ?? info.createdAt,
    models,
    messages: info.messageCount,
    tags,
  };
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenced(text: string, language: string | null): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language ?? ''}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** A hidden or system message: context the platform gave the model, folded where drawn. */
export function isContext(message: MessageView): boolean {
  return message.hidden || message.role === 'system';
}

/** What a folded context message is called, as the web app calls it. */
export function contextLabel(message: MessageView): string {
  return message.role === 'system' ? 'System message' : 'Hidden context';
}

function roleName(role: string): string {
  return role === '' ? 'Message' : role.charAt(0).toUpperCase() + role.slice(1);
}

/** An ISO time as people read it, minutes in UTC. */
export function readableTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

// A folded block: <details> in Markdown, a folded callout in Obsidian.
function folded(style: MarkdownStyle, kind: string, title: string, body: string): string {
  if (style === 'obsidian') return `${quote(`[!${kind}]- ${title}`)}\n${quote(body)}`;
  return `<details>\n<summary>${escapeHtml(title)}</summary>\n\n${body}\n\n</details>`;
}

/**
 * A link's address as a note may hold it: a web or mail address only (a `javascript:` or
 * `data:` one is dropped, as the HTML export and the web app drop it), written as the URL
 * parser writes it, with nothing left that ends the `<…>` destination or the line (a line
 * break in an address made headings and HTML of the rest).
 */
function noteLinkTarget(url: string | null): string | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (!['http:', 'https:', 'mailto:'].includes(parsed.protocol)) return null;
  // Brackets and parentheses too: a renderer that reads no `<…>` would read them as Markdown.
  return parsed.href.replace(/[\s<>\\[\]()]/g, percentEncoded);
}

const percentEncoded = (c: string): string =>
  `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** A link destination inside `<…>` (spaces allowed): line breaks, angle brackets, backslashes escaped. */
const inDestination = (target: string): string => target.replace(/[\r\n<>\\]/g, percentEncoded);

/** A link's text (a source's title, a file's name) on one line, with no bracket or HTML tag. */
const linkText = (text: string): string =>
  text
    .replace(/[[\]]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .trim();

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

class Footnotes {
  private n = 0;
  next(): string {
    return `c${String(++this.n)}`;
  }
}

function renderMessage(
  message: MessageView,
  level: number,
  context: MarkdownContext,
  notes: Footnotes,
): string {
  const head = [roleName(message.role), message.model, readableTime(message.createdAt)]
    .filter((part) => part !== null && part !== '')
    .join(' · ');
  const parts: string[] = [`${'#'.repeat(level)} ${head}${message.hidden ? ' (hidden)' : ''}`];
  const text = message.content;
  const marks: string[] = [];
  const definitions: string[] = [];
  for (const citation of message.citations) {
    const label = notes.next();
    marks.push(`[^${label}]`);
    const title = linkText(citation.title ?? citation.url ?? '') || 'source';
    const target = noteLinkTarget(citation.url);
    const link = target !== null ? `[${title}](<${target}>)` : title;
    const snippet = citation.snippet ? ` — ${citation.snippet.replace(/\s+/g, ' ').trim()}` : '';
    definitions.push(`[^${label}]: ${link}${snippet}`);
  }
  if (message.textShown) {
    let body = message.code ? fenced(text, message.code.language) : text;
    if (marks.length > 0) body = `${body}${message.code ? '\n\n' : ' '}${marks.join(' ')}`;
    parts.push(
      message.isThought
        ? folded(context.style, 'note', 'Thinking', body)
        : isContext(message)
          ? folded(context.style, 'note', contextLabel(message), body)
          : body,
    );
  } else if (marks.length > 0) parts.push(marks.join(' '));
  for (const call of message.toolCalls) {
    const pieces: string[] = [];
    if (call.input !== null && call.input !== '')
      pieces.push(fenced(call.input, call.inputLanguage));
    if (call.output !== null && call.output !== '')
      pieces.push(`${call.isError ? 'Error:' : 'Output:'}\n\n${fenced(call.output, 'text')}`);
    const title = `Tool call: ${call.name}${call.isError ? ' (failed)' : ''}`;
    parts.push(
      folded(
        context.style,
        'example',
        title,
        pieces.join('\n\n') || (call.inputAbove ? '(its input is the text above)' : '(no input)'),
      ),
    );
  }
  const files: string[] = [];
  for (const attachment of message.attachments) {
    const name = attachment.name ?? attachment.ref ?? attachment.type;
    const link = attachment.ref !== null ? context.attachmentLink(attachment.ref) : null;
    const image = attachment.type === 'image' || attachment.mime_type?.startsWith('image/');
    files.push(
      link !== null
        ? `- ${image ? '!' : ''}[${linkText(name)}](<${inDestination(link)}>)`
        : `- ${linkText(name)}${attachment.ref === null ? '' : ' (not in the export)'}`,
    );
    if (attachment.text !== null)
      files.push(
        '',
        folded(
          context.style,
          'quote',
          `Text of ${linkText(name)}`,
          fenced(attachment.text, 'text'),
        ),
        '',
      );
  }
  if (files.length > 0) parts.push(`Attachments:\n\n${files.join('\n')}`);
  if (definitions.length > 0) parts.push(definitions.join('\n'));
  return parts.join('\n\n');
}

/** The branches off the shown thread: each a run of messages in tree order, rooted at a fork. */
export interface Branch {
  number: number;
  /** The shown message it forks after (null: it starts the conversation anew). */
  forkAfter: MessageView | null;
  messages: MessageView[];
}

/**
 * The messages on the path the platform showed: the shown thread and their ancestors. Hidden
 * and system messages (a ChatGPT custom-instructions message, a Claude Code system line) are
 * off the thread's NEXT chain but on this path: they are context, not a branch.
 */
function shownPath(messages: readonly MessageView[]): Set<string> {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const path = new Set<string>();
  for (const message of messages) {
    if (!message.onShownThread) continue;
    for (
      let at: MessageView | undefined = message;
      at && !path.has(at.id);
      at = at.parentId !== null ? byId.get(at.parentId) : undefined
    )
      path.add(at.id);
  }
  return path;
}

/**
 * The conversation split into its shown thread and the branches off it: a branch starts at a
 * message off the shown path whose parent is on it (or that has none), and holds the messages
 * below it (a branch forking off a branch belongs to the branch it forks from).
 */
export function splitBranches(messages: readonly MessageView[]): {
  shown: MessageView[];
  branches: Branch[];
} {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const path = shownPath(messages);
  const shown = messages.filter((m) => path.has(m.id));
  const branches: Branch[] = [];
  const branchOf = new Map<string, Branch>();
  for (const message of messages) {
    if (path.has(message.id)) continue;
    const parent = message.parentId !== null ? byId.get(message.parentId) : undefined;
    let branch = parent ? branchOf.get(parent.id) : undefined;
    if (branch) branch.messages.push(message);
    else {
      branch = {
        number: branches.length + 1,
        forkAfter: parent && path.has(parent.id) ? parent : null,
        messages: [message],
      };
      branches.push(branch);
    }
    branchOf.set(message.id, branch);
  }
  return { shown, branches };
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** A conversation as one Markdown note: frontmatter, the shown thread, then its other branches. */
export function renderConversationMarkdown(
  view: ConversationView,
  pam: Conversation | undefined,
  context: MarkdownContext,
): string {
  const info = view.conversation;
  const notes = new Footnotes();
  const { shown, branches } = splitBranches(view.messages);
  const forks = new Map<string, Branch[]>();
  for (const branch of branches) {
    const key = branch.forkAfter?.id ?? '';
    forks.set(key, [...(forks.get(key) ?? []), branch]);
  }
  const out: string[] = [frontmatter(conversationFields(view, pam, context.style)).trimEnd()];
  out.push(`# ${(info.title ?? info.name).replace(/\s+/g, ' ').trim() || 'Untitled'}`);
  const meta = [info.source, readableTime(info.createdAt), `${String(info.messageCount)} messages`];
  const url = noteLinkTarget(view.url);
  out.push(`${meta.join(' · ')}${url !== null ? ` · [open on the platform](<${url}>)` : ''}`);
  const forkNote = (list: Branch[] | undefined): void => {
    for (const branch of list ?? []) {
      const target =
        context.style === 'obsidian'
          ? `[[#Branch ${String(branch.number)}]]`
          : `[Branch ${String(branch.number)}](#branch-${String(branch.number)})`;
      const line = `Another branch forks here: ${target} (${String(branch.messages.length)} ${branch.messages.length === 1 ? 'message' : 'messages'})`;
      out.push(context.style === 'obsidian' ? quote(`[!info] ${line}`) : `> ⑂ ${line}`);
    }
  };
  forkNote(forks.get(''));
  for (const message of shown) {
    out.push(renderMessage(message, 3, context, notes));
    forkNote(forks.get(message.id));
  }
  if (branches.length > 0) {
    out.push('## Other branches');
    for (const branch of branches) {
      out.push(`### Branch ${String(branch.number)}`);
      out.push(
        branch.forkAfter
          ? `Forks after the ${branch.forkAfter.role} message of ${readableTime(branch.forkAfter.createdAt)}: “${excerpt(branch.forkAfter.content)}”`
          : 'An alternative to the conversation’s first message.',
      );
      const base = branch.messages[0]?.depth ?? 0;
      for (const message of branch.messages)
        out.push(renderMessage(message, message.depth > base ? 5 : 4, context, notes));
    }
  }
  if (context.related && context.related.length > 0) {
    out.push('## Related');
    out.push(context.related.map((name) => `- [[${name}]]`).join('\n'));
  }
  return `${out.join('\n\n')}\n`;
}
