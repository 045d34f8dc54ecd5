// The recall quality benchmark: labelled sets of conversations and paraphrased queries that
// share no content word with their target, searched in keyword, semantic and hybrid modes.
// A query counts as a hit when its target is among the first 3 distinct conversations. Two sets:
// English (68 conversations and questions) and non-English (24 conversations in French, German,
// Spanish and Portuguese, questions in those languages, a quarter of them in another language
// than their conversation's); both are imported together, so each set's conversations compete
// with the other's. A third set asks about both in another language than the conversation's
// (and in two or three words), as people who did not write the conversations would. With --library it also measures the meaning cutoff of the model: how far
// above their noise level the labelled targets stand, how far questions that nothing answers do, and what
// the model's cutoff leaves out.
//   node bench/recall-quality.mjs            check the sets, import, embed, search, report
//   node bench/recall-quality.mjs --check    only check that no query shares a word with its target
// Options: --library (search through dist/index.js, the model loaded once: much faster than a
// process per search), --data-dir <dir> (use and keep that folder; import and embed are incremental),
// --concurrency <n> (CLI processes at once, 2 by default), --modes <m,m> (keyword,semantic,hybrid),
// --model <id> (embed with that model only; by default each of all-minilm-l6-v2,
// multilingual-e5-small and use-multilingual-v3 that is installed, a folder each), --floors (with --library: what other
// cutoffs would leave out), --conversations <file,file>,
// --queries <file> (one set, instead of both).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { UNANSWERABLE } from './recall-quality/question-sets.mjs';
import { sharedWords } from './recall-quality/word-overlap.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
const setDir = join(root, 'bench', 'recall-quality');
const conversationsFiles = option(
  '--conversations',
  ['conversations.json', 'conversations-multilingual.json'].map((f) => join(setDir, f)).join(','),
).split(',');
const givenQueries = option('--queries', undefined);
const querySets =
  givenQueries !== undefined
    ? [{ name: 'given', file: givenQueries, minimum: 1 }]
    : [
        { name: 'English', file: join(setDir, 'queries.json'), minimum: 50 },
        { name: 'non-English', file: join(setDir, 'queries-multilingual.json'), minimum: 16 },
        // Issue 43: questions written apart from the conversations, mostly in another language
        // than theirs (French, English, German, Spanish, Portuguese), some of two or three words.
        { name: 'cross-language', file: join(setDir, 'queries-crosslingual.json'), minimum: 18 },
        // Held out: written after the cross-language set, before any tuning on it, and never
        // tuned on (a figure on it says how the tuning on the others carries over).
        { name: 'held-out', file: join(setDir, 'queries-heldout.json'), minimum: 30 },
        // Written for the centring by language (issue 43), before it was tuned, and never tuned
        // on: short questions, paraphrases, mostly in another language than the conversation's.
        { name: 'held-out 2', file: join(setDir, 'queries-heldout-2.json'), minimum: 10 },
        // Written for the blend of plain and centred similarities (issue 43), before it was
        // measured, and never tuned on: the same kinds, other conversations where it could.
        { name: 'held-out 3', file: join(setDir, 'queries-heldout-3.json'), minimum: 20 },
      ];
const concurrency = Math.max(1, Number(option('--concurrency', '2')) || 2);
const modes = option('--modes', 'keyword,semantic,hybrid').split(',');
const givenModel = option('--model', undefined);
const models =
  givenModel !== undefined
    ? [givenModel]
    : ['all-minilm-l6-v2', 'multilingual-e5-small', 'use-multilingual-v3'];
const firstConversations = 3;
const targetRate = 90;
const minimumConversations = 60;

const unanswerable = UNANSWERABLE;

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
function conversationText(conversation, index, file) {
  const where = `${file}: conversation ${index}`;
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

/** Reads the files and checks the rules of the sets; exits with every violation listed. */
function loadAndCheck() {
  const conversations = new Map();
  for (const file of conversationsFiles) {
    readJsonArray(file).forEach((conversation, index) => {
      const text = conversationText(conversation, index, file);
      if (conversations.has(conversation.id))
        fail(`${file}: conversation id ${conversation.id} appears twice`);
      conversations.set(conversation.id, { title: conversation.title, text });
    });
  }
  const problems = [];
  const seen = new Set();
  const sets = querySets.map((set) => {
    const queries = readJsonArray(set.file);
    queries.forEach((entry, index) => {
      const where = `${set.file}: query ${index}`;
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
      const language = typeof entry.language === 'string' ? entry.language : 'en';
      const shared = sharedWords(entry.query, target.text, language);
      if (shared.length > 0) {
        const words = shared.map(([q, t]) => (q === t ? q : `${q}~${t}`)).join(', ');
        problems.push(`${where} "${entry.query}" shares ${words} with "${target.title}"`);
      }
    });
    if (queries.length < set.minimum)
      problems.push(`only ${queries.length} ${set.name} queries (at least ${set.minimum})`);
    return { name: set.name, queries };
  });
  if (conversations.size < minimumConversations)
    problems.push(`only ${conversations.size} conversations (at least ${minimumConversations})`);
  if (problems.length > 0) {
    fail(`the labelled set breaks its rules (${problems.length}):\n  ${problems.join('\n  ')}`);
  }
  return { conversations, sets };
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
  // The recaller is the data folder's (public); the store and the query model are internal.
  const { DataFolder } = await import('../dist/index.js');
  const { Folder } = await import('../dist/folder/folder.js');
  const { openQueryEmbedder } = await import('../dist/recall/embed-store.js');
  const { meaningCutoffOf, centredCutoffOf } = await import('../dist/embed/model-catalog.js');
  const { outsideModelLanguage } = await import('../dist/recall/outside-language.js');
  const dataFolder = await DataFolder.open(dataDir, { readonly: true });
  const recaller = await dataFolder.recaller();
  const folder = new Folder(dataDir);
  const store = await folder.openStore({ readonly: true });
  const embedder = await openQueryEmbedder(store, folder);
  const judge = await embedder?.meaningJudge();
  return {
    concurrency: 1,
    async search(query, mode) {
      try {
        return firstOf((await recaller.search({ text: query, mode, limit: 20 })).hits);
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },
    /**
     * The nearest hits in meaning with no cutoff (what the cutoff is measured on), and the
     * query's noise level.
     */
    async nearest(query) {
      if (!embedder || !judge) fail('the store has no vectors to measure a cutoff on');
      // A question in a language the model does not read is answered by its words only.
      const byWordsOnly = await outsideModelLanguage(query, embedder.model.id);
      if (byWordsOnly) return { hits: [], noise: Infinity, byWordsOnly };
      const vector = await embedder.embedQuery(query);
      // Centred by language when the model searches so: the index searched with the centred
      // query, each hit re-scored in centred space, judged by the centred noise level.
      const centre = await embedder.centre(query, vector);
      if (!centre) {
        const found = await store.vectors.search({ vector, limit: 100 });
        return { hits: await store.vectors.describe(found), noise: judge(vector).noise };
      }
      const found = await store.vectors.search({
        vector: centre.centred.vector,
        limit: 100,
        withVectors: true,
      });
      // Ranked as a search ranks them (plain similarity less the language pair's term), each
      // hit's score its centred similarity (what the cutoff judges).
      const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
      const centred = new Map();
      const ranked = found
        .map((hit) => {
          centred.set(hit.nodeId, centre.centred.score(hit));
          const rank = hit.vector
            ? dot(hit.vector, vector) - centre.pairWeight * centre.centred.languagePair(hit.owner)
            : centre.centred.score(hit);
          return { ...hit, rank, vector: undefined };
        })
        .sort((a, b) => b.rank - a.rank)
        .map(({ rank, ...hit }) => ({ ...hit, similarity: centred.get(hit.nodeId) }));
      return { hits: await store.vectors.describe(ranked), noise: centre.test.noise };
    },
    cutoff: centredCutoffOf(embedder?.model.id ?? '') ?? meaningCutoffOf(embedder?.model.id ?? ''),
    model: embedder?.model.id,
    async close() {
      await embedder?.close();
      await recaller.close();
      await dataFolder.close();
      await store.close();
    },
  };
}

/**
 * Imports the sets and the samples, embeds, then searches every query in every mode, for each
 * model (one not installed is skipped with the command that installs it).
 */
async function measure(conversations, sets) {
  const unknown = modes.filter((m) => !['keyword', 'semantic', 'hybrid'].includes(m));
  if (unknown.length > 0)
    fail(`--modes takes keyword, semantic, hybrid; not ${unknown.join(', ')}`);
  const { listInstalledModels, resolveModelDir } = await import('../dist/api/models.js');
  const installed = new Set(listInstalledModels(resolveModelDir()).map((m) => m.manifest.id));
  const given = option('--data-dir', undefined);
  for (const model of models) {
    if (givenModel === undefined && !installed.has(model)) {
      process.stdout.write(
        `${model}: not installed, not measured (chatgraph model fetch --model ${model})\n`,
      );
      continue;
    }
    const dataDir =
      given === undefined
        ? mkdtempSync(join(tmpdir(), 'chatgraph-recall-quality-'))
        : models.length > 1
          ? join(given, model)
          : given;
    try {
      await measureIn(dataDir, model, conversations, sets);
    } finally {
      if (given === undefined) rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

async function measureIn(dataDir, model, conversations, sets) {
  const samples = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((f) =>
    join(root, 'samples', f),
  );
  const files = [...conversationsFiles, ...samples];
  await step('import', ['import', ...files, '--data-dir', dataDir, '-q']);
  const embedStarted = Date.now();
  const embedded = await step('embed', ['embed', '--model', model, '--data-dir', dataDir, '-q']);
  const summary = embedded.trim().split('\n').at(-1) ?? '';
  process.stdout.write(
    `embed with ${model}: ${((Date.now() - embedStarted) / 1000).toFixed(1)} s${summary ? ` (${summary})` : ''}\n`,
  );
  let failed;
  const searcher = args.includes('--library')
    ? await librarySearcher(dataDir)
    : cliSearcher(dataDir);
  try {
    failed = await searchEveryMode(searcher, conversations, sets);
    if (searcher.nearest !== undefined && modes.includes('semantic'))
      await measureFloor(searcher, sets);
  } finally {
    await searcher.close();
  }
  // A search that errs measures nothing: the rates above would understate the mode.
  if (failed > 0) fail(`${failed} searches failed (listed above): the rates are not valid`);
}

/** Runs every query in every mode, prints the rates and the misses; returns the failed count. */
async function searchEveryMode(searcher, conversations, sets) {
  let failed = 0;
  for (const mode of modes) {
    const started = Date.now();
    const rates = [];
    const misses = [];
    const errors = [];
    for (const set of sets) {
      const results = await pool(set.queries, searcher.concurrency, (q) =>
        searcher.search(q.query, mode),
      );
      let hits = 0;
      results.forEach((result, i) => {
        const { query, target } = set.queries[i];
        if (result.ids?.includes(target)) hits++;
        else if (result.error !== undefined) errors.push({ query, result });
        else misses.push({ set: set.name, query, target, result });
      });
      const rate = ((100 * hits) / set.queries.length).toFixed(1);
      rates.push(`${set.name} ${hits}/${set.queries.length} (${rate}%)`);
    }
    const target = mode === 'keyword' ? '' : ` (target ≥ ${targetRate}%)`;
    process.stdout.write(
      `${mode}: ${rates.join(', ')} in the first ${firstConversations} conversations${target}; ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    for (const { query, result } of errors.slice(0, 3))
      process.stdout.write(`  search failed: "${query}": ${result.error}\n`);
    if (errors.length > 3) process.stdout.write(`  … and ${errors.length - 3} more failed\n`);
    failed += errors.length;
    if (mode === 'keyword') continue;
    for (const { set, query, target, result } of misses) {
      // The bundled samples are everyday conversations (tomato leaves, heating, sleep, slow
      // queries, sourdough...): marked, since some compete with the set's targets.
      const got =
        result.ids
          .map((id) => `${result.titles.get(id) ?? id}${conversations.has(id) ? '' : ' [sample]'}`)
          .join(' | ') || 'nothing';
      process.stdout.write(
        `  miss (${set}): "${query}" → "${conversations.get(target).title}"; got: ${got}\n`,
      );
    }
  }
  return failed;
}

/** Each conversation's best similarity, in the order of the nearest hits. */
function conversationsOf(hits) {
  const best = new Map();
  for (const hit of hits)
    if (!best.has(hit.platformConversationId)) best.set(hit.platformConversationId, hit.score);
  return [...best];
}

/**
 * The meaning cutoff measured (src/search/meaning-cutoff.ts): how far above its noise level
 * each labelled question's best match and its target stand (the cutoff's margin may not be
 * above them, its share of the lead not above the target's), how far the questions nothing
 * answers stand (the margin should be above them), and what the model's cutoff leaves out:
 * labelled hits lost, unanswerable questions still answered, conversations shown per labelled
 * answer (of the nearest hundred passages).
 */
async function measureFloor(searcher, sets) {
  const { cutoff } = searcher;
  const answers = [];
  // Questions in a language the model does not read (answered by words only): left out here.
  let byWords = 0;
  for (const set of sets)
    for (const { query, target } of set.queries) {
      const { hits, noise, byWordsOnly } = await searcher.nearest(query);
      if (byWordsOnly) byWords++;
      else answers.push({ query, target, noise, ranked: conversationsOf(hits) });
    }
  const unanswered = [];
  for (const query of unanswerable) {
    const { hits, noise, byWordsOnly } = await searcher.nearest(query);
    if (byWordsOnly) byWords++;
    else unanswered.push({ query, lead: (hits[0]?.score ?? 0) - noise });
  }
  if (byWords > 0)
    process.stdout.write(
      `  ${byWords} questions in a language ${searcher.model} does not read (answered by their words only) are left out below\n`,
    );
  let lowest = { lead: Infinity };
  let lowestShare = { share: Infinity };
  for (const { query, target, noise, ranked } of answers) {
    const best = ranked[0]?.[1] ?? 0;
    const found = ranked.slice(0, firstConversations).find(([id]) => id === target);
    if (found === undefined) continue;
    if (found[1] - noise < lowest.lead) lowest = { lead: found[1] - noise, query };
    const share = (found[1] - noise) / (best - noise);
    if (share < lowestShare.share) lowestShare = { share, query };
  }
  const f = (n) => n.toFixed(3);
  const leads = unanswered.map((u) => u.lead).sort((a, b) => b - a);
  process.stdout.write(
    `cutoff of ${searcher.model}: targets in the first ${firstConversations} stand ≥ ${f(lowest.lead)} above their question's noise level ("${lowest.query}"), with ≥ ${f(lowestShare.share)} of the best's lead ("${lowestShare.query}"); questions nothing answers ${f(leads.at(-1))} to ${f(leads[0])} ("${unanswered.find((u) => u.lead === leads[0])?.query}")\n`,
  );
  const effect = ({ margin, keep }) => {
    const least = (best, noise) => noise + Math.max(margin, keep * (best - noise));
    let lost = 0;
    let shown = 0;
    for (const { target, noise, ranked } of answers) {
      const best = ranked[0]?.[1] ?? 0;
      shown += ranked.filter(([, similarity]) => similarity >= least(best, noise)).length;
      const found = ranked.slice(0, firstConversations).find(([id]) => id === target);
      if (found !== undefined && found[1] < least(best, noise)) lost++;
    }
    const answered = unanswered.filter((u) => u.lead >= margin).length;
    return `${lost} labelled hits lost, ${answered} of ${unanswerable.length} unanswerable questions answered, ${(shown / answers.length).toFixed(1)} conversations per labelled answer`;
  };
  const all = answers.reduce((n, a) => n + a.ranked.length, 0) / answers.length;
  process.stdout.write(
    `  its cutoff (margin ${cutoff.margin}, keep ${cutoff.keep}): ${effect(cutoff)} (${all.toFixed(1)} with none)\n`,
  );
  if (!args.includes('--floors')) return;
  for (const margin of [0, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.1])
    for (const keep of [0.3, 0.5, 0.7])
      process.stdout.write(
        `  cutoff (margin ${margin}, keep ${keep}): ${effect({ margin, keep })}\n`,
      );
}

try {
  const { conversations, sets } = loadAndCheck();
  const counts = sets.map((set) => `${set.queries.length} ${set.name}`).join(' and ');
  process.stdout.write(
    `recall quality set: ${conversations.size} conversations, ${counts} queries, none sharing a content word with its target\n`,
  );
  if (!args.includes('--check')) await measure(conversations, sets);
} catch (error) {
  process.stderr.write(
    `recall-quality: ${error instanceof BenchError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
}
