import { dateBound } from '../stores/date-bound.js';
import type { ConversationInfo, ConversationReader, GraphQueries } from '../stores/store.js';
import { SERVER_QUERY_LIMITS } from '../stores/query-limits.js';
import type { Folder } from '../folder/folder.js';
import { memoryView, readMemories, type MemoryView } from './list-memories.js';

/** What happened since a time: new conversations, the busiest ones, memories added. */
export interface RecentActivity {
  /** The bound as a timestamp (relative bounds resolved against now). */
  since: string;
  newConversations: { total: number; items: ConversationInfo[] };
  /** Conversations with the most messages written since then (new or continued). */
  mostActive: { conversationId: string; title: string; source: string; messages: number }[];
  memoriesAdded: { total: number; items: MemoryView[] };
}

/** What `recentActivity` looks back over. */
export interface RecentOptions {
  /** The bound, in `--since`'s forms (a date, `24h`, `7d`, `2w`, `today`, `yesterday`). */
  since: string;
  /** The time relative bounds count back from (now when not given). */
  now?: Date | undefined;
  /** How many of each list (RECENT_LIMIT when not given). */
  limit?: number | undefined;
}

/** How many of each list `recentActivity` gives. */
export const RECENT_LIMIT = 10;

/**
 * Activity since `since` (`7d`, `24h`, `2w`, `yesterday`, or a date): the newest new
 * conversations, the conversations with the most new messages, and the memories added (active).
 */
export async function recentActivity(
  store: ConversationReader & GraphQueries,
  folder: Folder,
  options: RecentOptions,
): Promise<RecentActivity> {
  const since = dateBound(options.since, 'since', options.now ?? new Date());
  const limit = options.limit ?? RECENT_LIMIT;
  const page = await store.listConversations({ since, sort: 'newest', limit });
  const rows = await store.cypher(
    `MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message) WHERE m.created_at >= $since
     RETURN c.id AS id, c.name AS title, c.source AS source, count(m) AS messages
     ORDER BY messages DESC, id LIMIT $limit`,
    { since, limit },
    SERVER_QUERY_LIMITS,
  );
  // Memory times are in Pydantic's form (no zero fraction): compared as times, not text.
  const from = Date.parse(since);
  const added = (await readMemories(folder)).filter(
    (m) => m.status === 'active' && Date.parse(m.temporal.created_at) >= from,
  );
  return {
    since,
    newConversations: { total: page.total, items: page.items },
    mostActive: rows.map((row) => ({
      conversationId: String(row.id),
      title: String(row.title),
      source: String(row.source),
      messages: Number(row.messages),
    })),
    memoriesAdded: {
      total: added.length,
      items: await Promise.all(added.slice(0, limit).map((m) => memoryView(m, store))),
    },
  };
}
