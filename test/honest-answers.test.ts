import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { fetchModel } from '../src/embed/model-fetch.js';
import { importSamples } from './support/bundled-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { CLI } from './support/run-cli.js';

// Issue 43: a search answers what is true, with either bundled model: nothing by meaning for a
// question nothing answers, the count of conversations holding the words whatever the page,
// "did you mean" whenever the words match nothing, and a word when the model cannot read the
// question's language.
const run = promisify(execFile);
const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };

const Answer = z.object({
  mode: z.string(),
  summary: z.string(),
  hint: z.string().optional(),
  notice: z.string().optional(),
  belowFloor: z.number().optional(),
  byWordsOnly: z.literal(true).optional(),
  conversations: z.array(
    z.object({
      conversationId: z.string(),
      title: z.string(),
      why: z
        .object({ keyword: z.object({ rank: z.number() }).optional(), semantic: z.unknown() })
        .optional(),
    }),
  ),
});

const McpText = z.object({ content: z.array(z.object({ type: z.string(), text: z.string() })) });

/** `chatgraph search … --format json` in a CLI child, as a person or an agent runs it. */
async function searchInChild(data: string, text: string, ...args: string[]) {
  const { stdout } = await run(
    process.execPath,
    [CLI, 'search', text, '--data-dir', data, '--format', 'json', ...args],
    { env },
  );
  return Answer.parse(JSON.parse(stdout));
}

/**
 * The same command line run in this process (the code `main.ts` runs): each CLI child loads the
 * model again, seconds apiece, so every test makes its first search in a child and the rest here.
 */
async function searchHere(data: string, text: string, ...args: string[]) {
  const io = memoryIo();
  const code = await runCli(
    ['node', 'chatgraph', 'search', text, '--data-dir', data, '--format', 'json', ...args],
    io,
  );
  expect(code, io.stderr.join('\n')).toBe(0);
  return Answer.parse(JSON.parse(io.stdout.join('\n')));
}

/** A test's searches: the first in a CLI child, the others in this process. */
function firstInChild(): typeof searchHere {
  let searched = false;
  return (data, text, ...args) => {
    const here = searched;
    searched = true;
    return here ? searchHere(data, text, ...args) : searchInChild(data, text, ...args);
  };
}

const MODELS = ['all-minilm-l6-v2', 'multilingual-e5-small'] as const;
const NONSENSE = ['asdfgh qwerty', 'no such wordxyz', 'qwertzuiop', 'lorem ipsum dolor sit amet'];

// The searches run in this process read the models from where the children do.
beforeAll(() => {
  vi.stubEnv('CHATGRAPH_MODEL_DIR', testModelDir());
});

const embedded = new Map<string, Promise<string>>();
/**
 * The samples imported and embedded with `model`, once for the file: every test here only
 * searches them (the import and the embedding take most of a minute).
 */
function samplesEmbeddedWith(model: (typeof MODELS)[number]): Promise<string> {
  const made =
    embedded.get(model) ??
    (async () => {
      await fetchModel({ model, modelDir: testModelDir() });
      const data = join(tempDir(), 'data');
      importSamples(data);
      await run(process.execPath, [CLI, 'embed', '--model', model, '--data-dir', data, '-q'], {
        env,
      });
      return data;
    })();
  embedded.set(model, made);
  return made;
}

// The multilingual model takes a few seconds to load in each search's process.
describe.each(MODELS)('search with %s on the samples', { timeout: 300_000 }, (model) => {
  let data = '';
  beforeAll(async () => {
    data = await samplesEmbeddedWith(model);
  }, 900_000);

  it('answers nothing to nonsense, in every mode that searches by meaning', async () => {
    const search = firstInChild();
    for (const text of NONSENSE)
      for (const mode of ['semantic', 'hybrid']) {
        const answer = await search(data, text, '--mode', mode);
        expect(answer.conversations, `${text} (${mode})`).toEqual([]);
      }
  });

  // A question about something the samples never mention gets no answer by meaning. With
  // multilingual-e5-small it is told apart centred by language (docs/search.md, "Centring by
  // language"): its best passage stands below its centred noise level, and 0.022 above its plain
  // one, under the 0.03 a plain similarity needs beside the centred test.
  it('answers nothing to a question the history never mentions', async () => {
    const search = firstInChild();
    for (const mode of ['semantic', 'hybrid']) {
      const answer = await search(data, 'how to tune a violin bridge', '--mode', mode);
      expect(answer.conversations, mode).toEqual([]);
    }
  });

  it('still finds the conversation a real question is about', async () => {
    const search = firstInChild();
    for (const [text, title] of [
      ['my car will not start', 'Car Won’t Start in the Cold'],
      ['dog destroying furniture', 'Puppy Chewing the Sofa'],
    ] as const) {
      const answer = await search(data, text, '--mode', 'semantic');
      expect(answer.conversations[0]?.title, text).toBe(title);
    }
  });

  it('says "did you mean" whenever the words match nothing, in every mode', async () => {
    // The plain answer below is a CLI child's.
    const search = searchHere;
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      const answer = await search(data, 'sourdogh', '--mode', mode);
      expect(answer.hint, mode).toBe('sourdough');
    }
    const { stdout } = await run(
      process.execPath,
      [CLI, 'search', 'sourdogh', '--data-dir', data],
      {
        env,
      },
    );
    expect(stdout).toContain('no match for sourdogh; did you mean: sourdough');
  });

  it('starts its summary with the conversations holding the words, at every --limit', async () => {
    const search = firstInChild();
    const all = await search(data, 'week', '--mode', 'keyword', '--limit', '50');
    const holding = all.conversations.length;
    expect(holding).toBeGreaterThan(3);
    for (const mode of ['keyword', 'hybrid'])
      for (const limit of ['1', '3', '50']) {
        const answer = await search(data, 'week', '--mode', mode, '--limit', limit);
        expect(answer.summary, `${mode} --limit ${limit}`).toMatch(
          new RegExp(`^${String(holding)} conversations have the word(;|$)`),
        );
      }
  });
});

describe('the English model on a question in another language', () => {
  it('says so once, naming the command that fetches the multilingual model', async () => {
    const data = await samplesEmbeddedWith(MODELS[0]);
    const { stdout } = await run(
      process.execPath,
      [CLI, 'search', 'ma voiture ne démarre plus ce matin', '--data-dir', data],
      { env },
    );
    // French is one of use-multilingual-v3's languages: the model embed would choose is named.
    const fetch = 'chatgraph model fetch --model use-multilingual-v3';
    expect(stdout.split(fetch)).toHaveLength(2);
    // It was answered by its words alone (outside-language.ts), and the notice says so.
    expect(stdout).toMatch(
      /^\(the question looks French; all-minilm-l6-v2 reads English only, so it was searched by its words only: /,
    );
    const english = await searchHere(data, 'my car will not start in the morning');
    expect(english.notice).toBeUndefined();
  }, 300_000);

  // Read by its letters, a French question found French conversations whatever it asked (on the
  // recall bench 105 of the English model's 118 answers by meaning to labelled questions in
  // French, German, Spanish or Portuguese were wrong: docs/search.md). What its words find stays.
  it('answers it by its words only', async () => {
    const data = await samplesEmbeddedWith(MODELS[0]);
    const search = firstInChild();
    for (const text of [
      'ma voiture ne démarre plus ce matin',
      'horaires des marées à Saint-Malo',
      'les règles de la pétanque',
    ])
      for (const mode of ['semantic', 'hybrid']) {
        const answer = await search(data, text, '--mode', mode);
        expect(answer.conversations, `${text} (${mode})`).toEqual([]);
      }
    const byWords = await search(data, 'préavis logement zone tendue', '--mode', 'hybrid');
    expect(byWords.conversations[0]?.title).toBe('Lettre de résiliation de bail');
    // Found and ranked by its words alone: no similarity shown beside them ("words + meaning").
    expect(byWords.conversations[0]?.why).toEqual({ keyword: { rank: 1 } });
    // The answer says it was searched by its words alone, not that passages were too far.
    expect(byWords.summary).toMatch(/; not searched by meaning$/);
    expect(byWords.byWordsOnly).toBe(true);
    expect(byWords.belowFloor).toBeUndefined();
  }, 300_000);

  it('tells an agent over MCP that it searched by words only', async () => {
    const data = await samplesEmbeddedWith(MODELS[0]);
    const client = new Client({ name: 'chatgraph-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--data-dir', data],
        env: { ...env },
        stderr: 'ignore',
      }),
    );
    try {
      const answer = McpText.parse(
        await client.callTool({
          name: 'search_conversations',
          arguments: { query: 'préavis logement zone tendue' },
        }),
      );
      const text = answer.content.map((part) => part.text).join('\n');
      expect(text).toMatch(
        /^Searched by words only: 1 conversation has the words; not searched by meaning\.\n\(?the question looks French/,
      );
      // Found by its words: no similarity by meaning beside it.
      expect(text).toContain('Lettre de résiliation de bail');
      expect(text).not.toContain('similarity');
      // One row per message says the same.
      const rows = McpText.parse(
        await client.callTool({
          name: 'search_conversations',
          arguments: { query: 'préavis logement zone tendue', group: 'message' },
        }),
      );
      expect(rows.content.map((part) => part.text).join('\n')).toMatch(
        /^Searched by words only\.\n/,
      );
    } finally {
      await client.close();
    }
  }, 300_000);

  it('says nothing of the kind with the multilingual model', async () => {
    const data = await samplesEmbeddedWith(MODELS[1]);
    const answer = await searchInChild(data, 'ma voiture ne démarre plus ce matin');
    expect(answer.notice).toBeUndefined();
    expect(answer.conversations[0]?.title).toBe('Car Won’t Start in the Cold');
  }, 600_000);
});
