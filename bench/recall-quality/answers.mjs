// What a search answers by meaning (issue 43): for each question, the conversations a semantic
// and a hybrid search show (with the model's cutoff, as `chatgraph search` does), those matched by
// words marked. By default the recall bench's questions nothing answers and the violin question,
// then the held-out ones (UNANSWERABLE_HELDOUT, never tuned on), each group counted apart.
//   node bench/recall-quality/answers.mjs --data-dir DIR ["question|question…"]
import { UNANSWERABLE, UNANSWERABLE_HELDOUT, VIOLIN } from './question-sets.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--data-dir');
const dataDir = at < 0 ? undefined : args[at + 1];
if (dataDir === undefined) throw new Error('--data-dir DIR');
const given = args.filter((_, i) => i !== at && i !== at + 1)[0];
/** @type {[string, string[]][]} */
const groups =
  given !== undefined
    ? [['given', given.split('|')]]
    : [
        ['the bench', [...UNANSWERABLE, VIOLIN]],
        ['held out', UNANSWERABLE_HELDOUT],
      ];
const { DataFolder } = await import('../../dist/index.js');
const folder = await DataFolder.open(dataDir, { readonly: true });
const recaller = await folder.recaller();
for (const [name, questions] of groups) {
  let answered = 0;
  for (const text of questions) {
    const line = [];
    let byMeaning = false;
    for (const mode of /** @type {const} */ (['semantic', 'hybrid'])) {
      const { hits } = await recaller.search({ text, mode, limit: 20 });
      const titles = [];
      for (const hit of hits) {
        const title = `${hit.title}${hit.why?.keyword !== undefined ? ' [words]' : ''}`;
        if (!titles.includes(title)) titles.push(title);
        if (hit.why?.keyword === undefined) byMeaning = true;
      }
      line.push(`${mode}: ${titles.slice(0, 3).join(' | ') || 'nothing'}`);
    }
    if (byMeaning) answered++;
    process.stdout.write(`"${text}": ${line.join('; ')}\n`);
  }
  process.stdout.write(`${name}: ${answered} of ${questions.length} answered by meaning\n`);
}
await recaller.close();
await folder.close();
