// The answers of a fixed list of keyword searches, written whole as JSON, to compare two builds'
// answers byte for byte (issue 46: a faster count must give the same hits, order, scores and
// counts). Run by the build whose dist/ sits beside this bench/ (copy a base build's dist and
// bench aside to compare it):
//
//   node bench/keyword-answers.mjs --data-dir .bench/graph-data --out /tmp/new.json
//   node /tmp/base/bench/keyword-answers.mjs --data-dir .bench/graph-data --out /tmp/base.json
//   cmp /tmp/base.json /tmp/new.json
//
// The searches: bench/graph.mjs's 160 at limits 1, 20 and 100 (the filtered kinds and OR / NOT
// also at offset 20); each of a few words, prefixes and ORs since, until and between dates on,
// before and after days where conversations begin or end (read from the store, so both builds
// ask the same), with and without a source; NOT searches; a source that keeps no conversation.
import { writeFileSync } from 'node:fs';
import { layoutOf } from '../dist/folder/layout.js';
import { openReadonly } from '../dist/stores/sqlite/open-readonly.js';
import { searchSqlite } from '../dist/stores/sqlite/sqlite-search.js';
import { FILTERED_KINDS, WORDS, keywordQueries } from './keyword-queries.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const dataDir = option('--data-dir');
const out = option('--out');
if (dataDir === undefined || out === undefined)
  throw new Error('usage: keyword-answers.mjs --data-dir DIR --out FILE');

const db = openReadonly(layoutOf(dataDir).store, undefined);
/** @type {import('../dist/api/query.js').SearchQuery[]} */
const searches = [];
for (const { kind, query } of keywordQueries()) {
  for (const limit of [1, 20, 100]) searches.push({ ...query, limit });
  if (FILTERED_KINDS.has(kind)) searches.push({ ...query, limit: 20, offset: 20 });
}

// Days where conversations begin or end, spread over the store's span: each, the day before
// and after, and a time inside it.
const ends = db
  .prepare(
    `SELECT DISTINCT substr(t, 1, 10) FROM (
       SELECT min(created_at) AS t FROM "Message" GROUP BY owner
       UNION ALL SELECT max(created_at) FROM "Message" GROUP BY owner) ORDER BY 1`,
  )
  .pluck()
  .all()
  .filter(
    /** @returns {d is string} */ (d) => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d),
  );
const picked = [0.02, 0.3, 0.6, 0.9, 0.98].map(
  (q) => ends[Math.floor(q * (ends.length - 1))] ?? '',
);
const shift = (day, by) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
/** @type {string[]} */
const bounds = [
  '2023-12-01',
  ...picked.flatMap((day) => [shift(day, -1), day, `${day}T12:00:00Z`, shift(day, 1)]),
];
const dated = ['the', 'because', 'postgres', 'sourdough', 'beca*', 'post*', 'helm OR levain'];
for (const text of dated)
  for (const [i, bound] of bounds.entries()) {
    searches.push({ text, since: bound, limit: 20 });
    searches.push({ text, until: bound, limit: 20 });
    const later = bounds[(i + 3) % bounds.length] ?? bound;
    searches.push({
      text,
      since: bound < later ? bound : later,
      until: bound < later ? later : bound,
      limit: 20,
    });
    searches.push({ text, since: bound, source: 'chatgpt', limit: 1 });
  }

// NOT searches beyond the bench's, and a source that keeps no conversation.
for (const a of ['because', 'the', 'borrow', 'postgres'])
  for (const b of WORDS.slice(0, 10)) if (a !== b) searches.push({ text: `${a} -${b}`, limit: 20 });
for (const text of ['the* -lifetimes -helm', 'beca* -lifetimes -helm', 'the', 'borr*'])
  searches.push(
    { text, source: 'claude-ai', limit: 20 },
    { text, since: '2024-01-01', role: 'user', limit: 20 },
  );

const answers = searches.map((query) => ({ query, result: searchSqlite(db, query) }));
db.close();
writeFileSync(out, `${answers.map((a) => JSON.stringify(a)).join('\n')}\n`);
process.stdout.write(`${answers.length} searches written to ${out}\n`);
