import type { Random } from './random.js';

const TOPICS = [
  ['postgres', 'index', 'query planner', 'vacuum', 'replication', 'partitioning'],
  ['rust', 'borrow checker', 'lifetimes', 'async runtime', 'trait objects', 'cargo workspace'],
  ['kubernetes', 'ingress', 'helm chart', 'pod disruption budget', 'autoscaler', 'service mesh'],
  ['sourdough', 'levain', 'hydration', 'bulk fermentation', 'crumb', 'banneton'],
  ['marathon', 'tempo run', 'heart rate zones', 'taper', 'long run', 'carb loading'],
  [
    'typescript',
    'generics',
    'discriminated unions',
    'type narrowing',
    'module resolution',
    'strict mode',
  ],
  ['garden', 'compost', 'tomato blight', 'raised beds', 'drip irrigation', 'crop rotation'],
  ['budget', 'index funds', 'emergency fund', 'tax brackets', 'mortgage', 'rebalancing'],
];
const WORDS =
  'the a of to and in that is for it with as on be this are by an or which from at can we will you use when your more one if but not so all they how about also some would there their what should here time first then because each only other than into these just over most after where well may make like such both much very through same need good way any'.split(
    ' ',
  );
const OPENERS = [
  'Could you help me understand',
  'What is the best way to handle',
  'I keep running into trouble with',
  'Can you explain the difference between',
  'How would you approach',
  'Give me a plan for',
  'Why does my setup fail with',
  'Summarise what you know about',
];

/** A topic: a few related terms that a conversation keeps coming back to. */
export function pickTopic(random: Random): readonly string[] {
  return random.pick(TOPICS);
}

/** A sentence about the topic. */
export function sentence(random: Random, topic: readonly string[]): string {
  const length = random.int(8, 22);
  const words: string[] = [];
  for (let i = 0; i < length; i++)
    words.push(random.chance(0.15) ? random.pick(topic) : random.pick(WORDS));
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** A user prompt. */
export function prompt(random: Random, topic: readonly string[]): string {
  const ask = `${random.pick(OPENERS)} ${random.pick(topic)} and ${random.pick(topic)}?`;
  return random.chance(0.4) ? `${ask} ${sentence(random, topic)}` : ask;
}

/** An assistant answer of several paragraphs, sometimes with a list or a code block. */
export function answer(random: Random, topic: readonly string[], paragraphs: number): string {
  const parts: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const sentences = Array.from({ length: random.int(2, 6) }, () => sentence(random, topic));
    parts.push(sentences.join(' '));
    if (random.chance(0.2)) {
      parts.push(
        Array.from({ length: random.int(3, 5) }, () => `- ${sentence(random, topic)}`).join('\n'),
      );
    }
    if (random.chance(0.12)) {
      parts.push(
        `\`\`\`python\ndef ${random.pick(['run', 'plan', 'check'])}(items):\n    return [x for x in items if x]\n\`\`\``,
      );
    }
  }
  return parts.join('\n\n');
}
