// What `--redact` costs on a big export: the ChatGPT sample's conversations (about 50 MB of
// JSON, seed 42) masked one record at a time, as an import does, against walking them alone.
// Run from the repo, after `npm run build`: node bench/redact-cost.mjs [MB] [--secrets]
import { chatgptConversations } from '../dist/sample/chatgpt-sample.js';
import { redactValue } from '../dist/model/redact.js';

const megabytes = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 50);
const records = [
  ...chatgptConversations({ seed: 42, targetBytes: megabytes * 1024 * 1024, assetIds: [] }),
];
const bytes = records.reduce((sum, r) => sum + JSON.stringify(r).length, 0);

function walk(value) {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((n, v) => n + walk(v), 0);
  if (value !== null && typeof value === 'object')
    return Object.values(value).reduce((n, v) => n + walk(v), 0);
  return 0;
}

// With secrets too: one conversation in ten names a token after `Bearer` in its title, so its
// every string is masked in a second pass.
const withSecrets = process.argv.includes('--secrets');
if (withSecrets)
  records.forEach((record, i) => {
    if (i % 10 === 0) record.title = `curl -H "Authorization: Bearer tok${i}abcdefghijklmnopqrstu"`;
  });

for (let round = 0; round < 3; round++) {
  let start = performance.now();
  for (const record of records) walk(record);
  const walking = performance.now() - start;
  start = performance.now();
  /** @type {Record<string, number>} */
  const counts = {};
  for (const record of records) redactValue(record, counts);
  const masking = performance.now() - start;
  console.log(
    `${records.length} conversations, ${(bytes / 1024 / 1024).toFixed(1)} MB: redact ${masking.toFixed(0)} ms (walk alone ${walking.toFixed(0)} ms), ${(bytes / 1024 / 1024 / (masking / 1000)).toFixed(1)} MB/s, masked ${JSON.stringify(counts)}`,
  );
}
