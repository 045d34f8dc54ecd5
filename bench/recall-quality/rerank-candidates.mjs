// Issue 43: the passages a reranker would judge. For a data folder the recall bench embedded
// (`--data-dir`, opened read-only), each question of every set (the labelled ones, the 16 nothing
// answers, the held-out 37) is searched as `chatgraph search` does (hybrid, the model's cutoff,
// 20 hits), and its hits are written as JSON lines to standard output: the set, the question, its
// target, and for each hit the conversation, its title, whether it matched by words, its
// similarity, its passage (the snippet, match marks taken out) and the whole message it is in
// (its first 2,000 characters; the snippet for a title or an attachment). A scorer run apart (a
// cross-encoder or any relevance model) reads these lines, so the search runs once per folder.
//   node bench/recall-quality/rerank-candidates.mjs --data-dir DIR > candidates.jsonl
import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { UNANSWERABLE, UNANSWERABLE_HELDOUT, VIOLIN, labelledQuestions } from './question-sets.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--data-dir');
const dataDir = at < 0 ? undefined : args[at + 1];
if (dataDir === undefined) throw new Error('--data-dir DIR');
const { DataFolder } = await import('../../dist/index.js');

const questions = [
  ...labelledQuestions(),
  ...[...UNANSWERABLE, VIOLIN].map((query) => ({ set: 'the 16', query, target: undefined })),
  ...UNANSWERABLE_HELDOUT.map((query) => ({ set: 'held-out 37', query, target: undefined })),
];
// The snippet's match marks (MATCH_START and MATCH_END, stores/store) are private-use characters.
const MARKS = /[\ue000\ue001]/gu;
const db = new Database(join(dataDir, 'chatgraph.sqlite'), { readonly: true });
const message = db.prepare('SELECT content FROM Message WHERE id = ?').pluck();
/** @param {string} id @returns {string | undefined} */
const content = (id) => {
  const text = message.get(id);
  return typeof text === 'string' ? text.slice(0, 2000) : undefined;
};
const folder = await DataFolder.open(dataDir, { readonly: true });
const recaller = await folder.recaller();
for (const { set, query, target } of questions) {
  const { hits } = await recaller.search({ text: query, mode: 'hybrid', limit: 20 });
  const rows = hits.map((h) => ({
    conversation: h.platformConversationId,
    title: h.title,
    words: h.why?.keyword !== undefined,
    similarity: h.why?.semantic?.similarity,
    passage: h.snippet.replace(MARKS, ''),
    message:
      h.kind === undefined || h.kind === 'message'
        ? (content(h.messageId) ?? h.snippet.replace(MARKS, ''))
        : h.snippet.replace(MARKS, ''),
  }));
  process.stdout.write(`${JSON.stringify({ set, query, target, hits: rows })}\n`);
}
await recaller.close();
await folder.close();
db.close();
