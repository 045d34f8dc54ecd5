import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Citation, Conversation } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { anonymousId } from '../anonymous-id.js';
import { notAConversation } from '../not-a-conversation.js';
import type { ConversionContext, Detection, Provider } from '../provider.js';
import { asAbsoluteUrl, asArray, asObject, asString, asText, without } from '../untrusted.js';
import { keptAddress } from '../platform-url.js';
import { isOfficialExport, officialConversation } from './official.js';
import type { Turn } from './turn.js';
import { oneLineTitle } from '../../model/title.js';
import { stableId } from '../../model/ids.js';

/*
 * Perplexity threads, one JSON file a thread, in the two shapes people's exporters write:
 * - "thread": `{metadata: {thread_title, thread_url, thread_id, exported_at, …},
 *   conversations: [{uuid, query, answer, model, mode, timestamp, sources: [{title, url,
 *   snippet}], related_queries}]}` (Perplexity Thread Exporter and its kin);
 * - "entries": the web app's own thread API saved as is, `{status, entries: [{uuid,
 *   context_uuid, thread_title, thread_url_slug, query_str, blocks: [{intended_usage,
 *   markdown_block: {answer, chunks}, sources_mode_block / web_result_block: {web_results}}],
 *   display_model, mode, entry_created_datetime, related_queries}]}`.
 * - "official": Perplexity's own account export (a data request), `user_data_export_<date>_<id>
 *   .zip` holding one `conversations-<YYYYMMDD>_<HHMMSS>-<hash>.json`, `{conversations:
 *   [{context_uuid, context_title, created_at, updated_at, mode, collection_uuid, entries:
 *   [{entry_uuid, query, answer, created_at, label, query_status, engine_mode}]}]}`, one record
 *   a conversation (see ./official.ts), and a spreadsheet of the same that is not read.
 * Each turn (entry) is one question and one answer; the answer's sources are its citations.
 */
function detect(path: string, head: string): Detection | undefined {
  if (!path.toLowerCase().endsWith('.json')) return undefined;
  if (isOfficialExport(path, head))
    return {
      role: 'conversations',
      format: { kind: 'json', streamKeys: ['conversations'] },
      variant: 'official',
    };
  if (/"thread_title"\s*:/.test(head) && /"conversations"\s*:/.test(head))
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'thread' };
  if (/"entries"\s*:/.test(head) && /"(query_str|thread_url_slug|backend_uuid)"\s*:/.test(head))
    return { role: 'conversations', format: { kind: 'json-file' }, variant: 'entries' };
  return undefined;
}

function texts(value: unknown): string[] {
  return (asArray(value) ?? []).flatMap((item) => {
    const text = asText(item) ?? asText(asObject(item)?.text);
    return text === undefined ? [] : [text];
  });
}

function threadTurn(raw: unknown): Turn | undefined {
  const turn = asObject(raw);
  if (!turn) return undefined;
  return {
    id: asText(turn.uuid),
    query: asString(turn.query) ?? '',
    answer: asString(turn.answer) ?? '',
    model: asText(turn.model),
    mode: asText(turn.mode),
    time: asText(turn.timestamp),
    sources: asArray(turn.sources) ?? [],
    related: texts(turn.related_queries),
    raw: without(turn, ['uuid', 'query', 'answer', 'model', 'timestamp', 'sources']),
  };
}

/** The answer of an entry: its markdown block's `answer`, else its streamed `chunks`. */
function entryAnswer(blocks: unknown[]): string {
  for (const item of blocks) {
    const markdown = asObject(asObject(item)?.markdown_block);
    if (!markdown) continue;
    const answer = asString(markdown.answer);
    if (answer) return answer;
    const chunks = (asArray(markdown.chunks) ?? []).filter((c) => typeof c === 'string');
    if (chunks.length > 0) return chunks.join('');
  }
  return '';
}

/** The web results an entry's blocks list (sources mode rows, web result blocks, plan steps). */
function entrySources(blocks: unknown[]): unknown[] {
  const sources: unknown[] = [];
  for (const item of blocks) {
    const block = asObject(item) ?? {};
    for (const key of ['sources_mode_block', 'web_result_block']) {
      const inner = asObject(block[key]);
      sources.push(...(asArray(inner?.web_results) ?? []));
      for (const row of asArray(inner?.rows) ?? []) sources.push(asObject(row)?.web_result);
    }
    for (const step of asArray(asObject(block.plan_block)?.steps) ?? [])
      sources.push(...(asArray(asObject(asObject(step)?.web_results_content)?.web_results) ?? []));
  }
  return sources;
}

function entryTurn(raw: unknown): Turn | undefined {
  const entry = asObject(raw);
  if (!entry) return undefined;
  const blocks = asArray(entry.blocks) ?? [];
  return {
    id: asText(entry.uuid) ?? asText(entry.backend_uuid),
    query: asString(entry.query_str) ?? '',
    answer: entryAnswer(blocks),
    model: asText(entry.display_model) ?? asText(entry.user_selected_model),
    mode: asText(entry.mode),
    time:
      asText(entry.entry_created_datetime) ??
      asText(entry.entry_updated_datetime) ??
      asText(entry.updated_datetime),
    sources: entrySources(blocks),
    related: [...texts(entry.related_queries), ...texts(entry.related_query_items)],
    raw: without(entry, ['uuid', 'query_str', 'blocks', 'display_model', 'entry_created_datetime']),
  };
}

function citations(sources: unknown[]): Citation[] {
  const seen = new Set<string>();
  const out: Citation[] = [];
  for (const item of sources) {
    const source = asObject(item);
    if (!source) continue;
    const citation: Citation = {
      title: asText(source.title) ?? asText(source.name) ?? null,
      url: asAbsoluteUrl(source.url),
      snippet: asText(source.snippet) ?? null,
    };
    const key = citation.url ?? citation.title ?? citation.snippet;
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    out.push(citation);
  }
  return out;
}

/**
 * The user's question and the answer of one turn, chained after `previous`. A turn is known by
 * its question and how many times the thread asked it before, not by its uuid: the official
 * export and the thread exporters number the same turns differently (none of 48 shared turns
 * had one uuid, all 48 questions were the same), and one conversation read from both must merge.
 */
function turnDrafts(
  turn: Turn,
  asked: Map<string, number>,
  previous: string | null,
): DraftMessage[] {
  const question = turn.query.trim().replace(/\s+/g, ' ');
  const times = asked.get(question) ?? 0;
  asked.set(question, times + 1);
  const base = `${stableId('perplexity-turn', question)}#${times}`;
  const time = toTimestamp(turn.time);
  const asking: DraftMessage = {
    key: `${base}:query`,
    parentKey: previous,
    provider_message_id: turn.id ?? null,
    role: 'user',
    content: { type: 'text', text: turn.query },
    createdAt: time,
    model: null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls: [],
    raw_metadata: {},
  };
  const answer: DraftMessage = {
    key: `${base}:answer`,
    parentKey: asking.key,
    provider_message_id: turn.id ?? null,
    role: 'assistant',
    content: { type: 'text', text: turn.answer },
    createdAt: time,
    model: turn.model ?? null,
    is_thought: false,
    attachments: [],
    citations: citations(turn.sources),
    tool_calls: [],
    raw_metadata: {
      ...turn.raw,
      ...(turn.mode ? { mode: turn.mode } : {}),
      ...(turn.related.length > 0 ? { related_queries: turn.related } : {}),
    },
  };
  return [asking, answer];
}

/** A title from the first question, for threads saved without one: one line, cut at a word. */
export function titleFrom(query: string | undefined): string | null {
  return oneLineTitle(query ?? '', 100);
}

/** A thread's turns, oldest first, as one chain of questions and answers. */
function threadDrafts(turns: readonly Turn[]): DraftMessage[] {
  const drafts: DraftMessage[] = [];
  const asked = new Map<string, number>();
  for (const turn of turns) drafts.push(...turnDrafts(turn, asked, drafts.at(-1)?.key ?? null));
  return drafts;
}

function toConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  if (variant === 'official') return officialConversation(raw, context, threadDrafts);
  const file = asObject(raw);
  const list = asArray(variant === 'entries' ? file?.entries : file?.conversations);
  if (!file || !list) {
    notAConversation(
      context,
      'a Perplexity thread file has `conversations` or `entries`; this one has neither',
    );
    return undefined;
  }
  const turns = list
    .map(variant === 'entries' ? entryTurn : threadTurn)
    .filter(
      (turn): turn is Turn => turn !== undefined && (turn.query !== '' || turn.answer !== ''),
    );
  // Entries come newest first from the API; a thread reads oldest first.
  turns.sort((a, b) => Date.parse(a.time ?? '') - Date.parse(b.time ?? '') || 0);
  const metadata = asObject(file.metadata) ?? {};
  const first = asObject(list[0]) ?? {};
  const slug = asText(first.thread_url_slug);
  const url =
    asAbsoluteUrl(metadata.thread_url) ??
    (slug ? `https://www.perplexity.ai/search/${slug}` : null);
  const drafts = threadDrafts(turns);
  const times = turns.map((t) => toTimestamp(t.time)).filter((t) => t !== undefined);
  return buildConversation(
    {
      provider: {
        name: 'perplexity',
        conversation_id:
          asText(metadata.thread_id) ??
          asText(first.context_uuid) ??
          slug ??
          anonymousId('perplexity', raw, context),
        account_id: null,
        export_format_version: `perplexity/${variant}`,
      },
      title:
        asText(metadata.thread_title) ?? asText(first.thread_title) ?? titleFrom(turns[0]?.query),
      createdAt: toTimestamp(metadata.thread_created_at) ?? times[0],
      updatedAt: toTimestamp(metadata.thread_updated_at) ?? times.at(-1),
      messages: drafts,
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: {
        ...without(metadata, ['thread_title', 'thread_id']),
        ...(url ? { platform_url: url } : {}),
      },
      assistantName: 'Perplexity',
    },
    context,
  );
}

/** Perplexity threads, one JSON file each, from thread exporters or the thread API. */
export const perplexity: Provider = {
  conversationUrl: (_id, raw) => keptAddress(raw, ['perplexity.ai']),
  name: 'perplexity',
  source: 'perplexity',
  label: 'Perplexity',
  product: 'Perplexity',
  howToExport:
    'request your data at perplexity.typeform.com/datarequest (a download link arrives by e-mail, days later) and give the user_data_export_….zip; or give the .json files of a thread exporter (Perplexity Thread Exporter, or the thread API saved as is)',
  detect,
  toConversation,
};
