// The recall quality benchmark: a labelled set of conversations and paraphrased queries that
// share no content word with their target, searched in keyword, semantic and hybrid modes.
// A query counts as a hit when its target is among the first 3 distinct conversations.
//   node bench/recall-quality.mjs            check the set, import, embed, search, report
//   node bench/recall-quality.mjs --check    only check that no query shares a word with its target
// Options: --library (search through dist/index.js, the model loaded once: much faster than a
// process per search), --data-dir <dir> (use and keep that folder; import and embed are incremental),
// --concurrency <n> (CLI processes at once, 2 by default), --modes <m,m> (keyword,semantic,hybrid),
// --conversations <file>, --queries <file>.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sharedWords } from './recall-quality/word-overlap.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
const conversationsFile = option(
  '--conversations',
  join(root, 'bench', 'recall-quality', 'conversations.json'),
);
const queriesFile = option('--queries', join(root, 'bench', 'recall-quality', 'queries.json'));
const concurrency = Math.max(1, Number(option('--concurrency', '2')) || 2);
const modes = option('--modes', 'keyword,semantic,hybrid').split(',');
const firstConversations = 3;
const targetRate = 85;
const minimum = { conversations: 60, queries: 50 };

/** A broken rule or a failed step: reported in one message, the run stops with exit code 1. */
class BenchError extends Error {}

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  throw new BenchError(message);
}

function readJsonArray(file) {
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`${file}: not readable JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(value)) fail(`${file}: expected a JSON array`);
  return value;
}

/** Every text of a ChatGPT conversation, every branch included: title, then message parts. */
function conversationText(conversation, index) {
  const where = `${conversationsFile}: conversation ${index}`;
  if (typeof conversation?.id !== 'string') fail(`${where} has no string "id"`);
  if (typeof conversation.title !== 'string') fail(`${where} (${conversation.id}) has no title`);
  if (typeof conversation.mapping !== 'object' || conversation.mapping === null)
    fail(`${where} (${conversation.id}) has no "mapping"`);
  const texts = [conversation.title];
  for (const node of Object.values(conversation.mapping)) {
    const parts = node?.message?.content?.parts;
    if (Array.isArray(parts)) texts.push(...parts.filter((p) => typeof p === 'string'));
  }
  return texts.join('\n');
}

/** Reads both files and checks the rules of the set; exits with every violation listed. */
function loadAndCheck() {
  const conversations = new Map();
  readJsonArray(conversationsFile).forEach((conversation, index) => {
    const text = conversationText(conversation, index);
    if (conversations.has(conversation.id))
      fail(`${conversationsFile}: conversation id ${conversation.id} appears twice`);
    conversations.set(conversation.id, { title: conversation.title, text });
  });
  const queries = readJsonArray(queriesFile);
  const problems = [];
  const seen = new Set();
  queries.forEach((entry, index) => {
    const where = `${queriesFile}: query ${index}`;
    if (typeof entry?.query !== 'string' || entry.query.trim() === '') {
      problems.push(`${where} has no "query" text`);
      return;
    }
    if (seen.has(entry.query)) problems.push(`${where} "${entry.query}" appears twice`);
    seen.add(entry.query);
    const target = conversations.get(entry.target);
    if (target === undefined) {
      problems.push(`${where} "${entry.query}": target ${entry.target} is no conversation`);
      return;
    }
    const shared = sharedWords(entry.query, target.text);
    if (shared.length > 0) {
      const words = shared.map(([q, t]) => (q === t ? q : `${q}~${t}`)).join(', ');
      problems.push(`${where} "${entry.query}" shares ${words} with "${target.title}"`);
    }
  });
  if (conversations.size < minimum.conversations)
    problems.push(`only ${conversations.size} conversations (at least ${minimum.conversations})`);
  if (queries.length < minimum.queries)
    problems.push(`only ${queries.length} queries (at least ${minimum.queries})`);
  if (problems.length > 0) {
    fail(`the labelled set breaks its rules (${problems.length}):\n  ${problems.join('\n  ')}`);
  }
  return { conversations, queries };
}

async function cli(cliArgs) {
  const { stdout } = await run(
    process.execPath,
    [join(root, 'dist', 'cli', 'main.js'), ...cliArgs],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  return stdout;
}

/** The first line of what a failed CLI run said. */
/** @param {any} error */
const firstLine = (error) => (error.stderr || error.message || String(error)).trim().split('\n')[0];

/** Runs one CLI step that the measurement needs; its failure stops the run. */
async function step(name, cliArgs) {
  try {
    return await cli(cliArgs);
  } catch (error) {
    fail(`chatgraph ${name} failed: ${firstLine(error)}`);
  }
}

/** Runs `work` over `items` with at most `limit` at once, keeping the order of the results. */
async function pool(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The first distinct conversations of a search's hits, and the titles to print a miss. */
function firstOf(hits) {
  if (!Array.isArray(hits)) return { error: 'the result has no "hits" array' };
  const ids = [];
  for (const hit of hits) {
    if (!ids.includes(hit.platformConversationId)) ids.push(hit.platformConversationId);
  }
  return {
    ids: ids.slice(0, firstConversations),
    titles: new Map(hits.map((h) => [h.platformConversationId, h.title])),
  };
}

/** Searches through the CLI, one process per search (the way a user runs it). */
function cliSearcher(dataDir) {
  return {
    concurrency,
    async search(query, mode) {
      try {
        const out = await cli([
          'search',
          query,
          '--mode',
          mode,
          '--format',
          'json',
          '--limit',
          '20',
          '--data-dir',
          dataDir,
        ]);
        return firstOf(JSON.parse(out).hits);
      } catch (error) {
        return { error: firstLine(error) };
      }
    },
    close: async () => {},
  };
}

/** Searches through the library: one store and one loaded model for every query (fast). */
async function librarySearcher(dataDir) {
  const library = await import('../dist/index.js');
  if (typeof library.createRecaller !== 'function')
    fail('--library needs dist/index.js to export createRecaller (run npm run build)');
  const store = await library.openStore({ dataDir }, { readonly: true });
  const recaller = library.createRecaller(store, dataDir);
  return {
    concurrency: 1,
    async search(query, mode) {
      try {
        return firstOf((await recaller.search({ text: query, mode, limit: 20 })).hits);
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },
    async close() {
      await recaller.close();
      await store.close();
    },
  };
}

/** Imports the set and the samples, embeds, then searches every query in every mode. */
async function measure(conversations, queries) {
  const unknown = modes.filter((m) => !['keyword', 'semantic', 'hybrid'].includes(m));
  if (unknown.length > 0)
    fail(`--modes takes keyword, semantic, hybrid; not ${unknown.join(', ')}`);
  const given = option('--data-dir', undefined);
  const dataDir = given ?? mkdtempSync(join(tmpdir(), 'chatgraph-recall-quality-'));
  try {
    await measureIn(dataDir, conversations, queries);
  } finally {
    if (given === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureIn(dataDir, conversations, queries) {
  const samples = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((f) =>
    join(root, 'samples', f),
  );
  await step('import', ['import', conversationsFile, ...samples, '--data-dir', dataDir, '-q']);
  const embedStarted = Date.now();
  const embedded = await step('embed', ['embed', '--data-dir', dataDir, '-q']);
  const summary = embedded.trim().split('\n').at(-1) ?? '';
  process.stdout.write(
    `embed: ${((Date.now() - embedStarted) / 1000).toFixed(1)} s${summary ? ` (${summary})` : ''}\n`,
  );
  let failed;
  const searcher = args.includes('--library')
    ? await librarySearcher(dataDir)
    : cliSearcher(dataDir);
  try {
    failed = await searchEveryMode(searcher, conversations, queries);
  } finally {
    await searcher.close();
  }
  // A search that errs measures nothing: the rates above would understate the mode.
  if (failed > 0) fail(`${failed} searches failed (listed above): the rates are not valid`);
}

/** Runs every query in every mode, prints the rates and the misses; returns the failed count. */
async function searchEveryMode(searcher, conversations, queries) {
  let failed = 0;
  for (const mode of modes) {
    const started = Date.now();
    const results = await pool(queries, searcher.concurrency, (q) =>
      searcher.search(q.query, mode),
    );
    const misses = [];
    let hits = 0;
    results.forEach((result, i) => {
      const { query, target } = queries[i];
      if (result.ids?.includes(target)) hits++;
      else misses.push({ query, target, result });
    });
    const rate = ((100 * hits) / queries.length).toFixed(1);
    const target = mode === 'keyword' ? '' : ` (target ≥ ${targetRate}%)`;
    process.stdout.write(
      `${mode}: ${hits}/${queries.length} in the first ${firstConversations} conversations, ${rate}%${target}; ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    const errors = misses.filter((m) => m.result.error !== undefined);
    for (const { query, result } of errors.slice(0, 3))
      process.stdout.write(`  search failed: "${query}": ${result.error}\n`);
    if (errors.length > 3) process.stdout.write(`  … and ${errors.length - 3} more failed\n`);
    failed += errors.length;
    if (mode === 'keyword') continue;
    for (const { query, target, result } of misses) {
      if (result.error !== undefined) continue;
      // The bundled samples are everyday conversations (tomato leaves, heating, sleep, slow
      // queries, sourdough...): marked, since some compete with the set's targets.
      const got =
        result.ids
          .map((id) => `${result.titles.get(id) ?? id}${conversations.has(id) ? '' : ' [sample]'}`)
          .join(' | ') || 'nothing';
      process.stdout.write(
        `  miss: "${query}" → "${conversations.get(target).title}"; got: ${got}\n`,
      );
    }
  }
  return failed;
}

try {
  const { conversations, queries } = loadAndCheck();
  process.stdout.write(
    `recall quality set: ${conversations.size} conversations, ${queries.length} queries, none sharing a content word with its target\n`,
  );
  if (!args.includes('--check')) await measure(conversations, queries);
} catch (error) {
  process.stderr.write(
    `recall-quality: ${error instanceof BenchError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
}
