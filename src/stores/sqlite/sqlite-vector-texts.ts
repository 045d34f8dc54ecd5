import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import type { EmbeddingText } from '../vector-index.js';
import { NullableText, Text, sqliteRow, sqliteRows } from './sqlite-rows.js';
import { sqlHoldsText } from './sqlite-white-space.js';

// The rows one conversation's texts to embed are read from: a few at a time (the model's time
// dwarfs their reading), parsed with zod as the store's other rows are.

/** A conversation's title and what its texts are labelled with. */
const ConversationTextRow = z.object({
  title: NullableText,
  source: Text,
  created_at: NullableText,
});

/** A message's text to embed. */
const MessageTextRow = z.object({
  id: Text,
  role: Text,
  content: Text,
  created_at: NullableText,
});

/** An attachment's text to embed, with the message it belongs to. */
const AttachmentTextRow = z.object({
  id: Text,
  content: Text,
  message_id: Text,
  role: Text,
  created_at: NullableText,
});

/** The texts of one conversation worth embedding: its title, messages and attachments. */
export function embeddingTexts(db: Database.Database, owner: string): EmbeddingText[] {
  const conversation = sqliteRow(
    ConversationTextRow,
    db.prepare(`SELECT title, source, created_at FROM "Conversation" WHERE id = ?`).get(owner),
    'conversation',
  );
  if (!conversation) return [];
  const { source } = conversation;
  const messages = sqliteRows(
    MessageTextRow,
    db
      .prepare(
        `SELECT id, role, content, created_at FROM "Message" WHERE owner = ? AND ${sqlHoldsText('content')} ORDER BY position IS NULL, position, rowid`,
      )
      .all(owner),
    'message',
  );
  const texts: EmbeddingText[] = [];
  const title = conversation.title?.trim();
  if (title) {
    const first = db
      .prepare(
        `SELECT id FROM "Message" WHERE owner = ? ORDER BY position IS NULL, position LIMIT 1`,
      )
      .pluck()
      .get(owner);
    texts.push({
      nodeId: owner,
      kind: 'title',
      messageId: typeof first === 'string' ? first : null,
      text: title,
      source,
      role: null,
      createdAt: conversation.created_at,
    });
  }
  for (const m of messages)
    texts.push({
      nodeId: m.id,
      kind: 'message',
      messageId: m.id,
      text: m.content,
      source,
      role: m.role,
      createdAt: m.created_at,
    });
  const attachments = sqliteRows(
    AttachmentTextRow,
    db
      .prepare(
        `SELECT a.id, a.content, e.src AS message_id, m.role, m.created_at FROM "Attachment" a
         JOIN "HAS_ATTACHMENT" e ON e.dst = a.id JOIN "Message" m ON m.id = e.src
         WHERE a.owner = ? AND ${sqlHoldsText('a.content')}`,
      )
      .all(owner),
    'attachment',
  );
  for (const a of attachments)
    texts.push({
      nodeId: a.id,
      kind: 'attachment',
      messageId: a.message_id,
      text: a.content,
      source,
      role: a.role,
      createdAt: a.created_at,
    });
  return texts;
}
