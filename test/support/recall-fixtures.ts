import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { msg, node } from './chatgpt-builder.js';

/** Short conversations on distinct topics: the real model tells them apart by meaning. */
export const TOPICS: [string, string, string][] = [
  [
    'starter',
    'My sourdough starter smells like nail polish remover',
    'An acetone smell means the starter is hungry: feed it more often and keep it warmer.',
  ],
  [
    'drain',
    'Pods get evicted when I drain a node in the cluster',
    'Add a PodDisruptionBudget so kubectl drain keeps enough replicas running.',
  ],
  [
    'taper',
    'How many weeks should I cut my mileage before race day',
    'Reduce your weekly distance over the last three weeks before the marathon.',
  ],
  [
    'tomato',
    'Brown spots are spreading on the lower leaves of my tomatoes',
    'That looks like early blight: remove the affected leaves and water at the base.',
  ],
  [
    'tap',
    'The kitchen faucet keeps dripping after I close it',
    'The washer or cartridge is worn: shut the water off and replace it.',
  ],
];

function conversation([id, question, answer]: [string, string, string], n: number): unknown {
  const t = 1_700_000_000 + n * 1000;
  return {
    id,
    conversation_id: id,
    title: null,
    create_time: t,
    update_time: t + 10,
    current_node: `${id}-a`,
    mapping: {
      [`${id}-root`]: node(`${id}-root`, null, [`${id}-q`], null),
      [`${id}-q`]: node(
        `${id}-q`,
        `${id}-root`,
        [`${id}-a`],
        msg(`${id}-q`, 'user', question, t + 1),
      ),
      [`${id}-a`]: node(`${id}-a`, `${id}-q`, [], msg(`${id}-a`, 'assistant', answer, t + 2)),
    },
  };
}

/** Writes the topics as a ChatGPT `conversations.json` in a folder; its path. */
export function writeExport(dir: string, topics = TOPICS): string {
  const file = join(dir, 'conversations.json');
  writeFileSync(file, JSON.stringify(topics.map(conversation)));
  return file;
}

/** Conversations mostly in French (one in English): a history `embed` should see as not English. */
export const FRENCH_TOPICS: [string, string, string][] = [
  [
    'levain',
    'Mon levain sent le dissolvant depuis deux jours, est-ce grave ?',
    "Une odeur d'acétone veut dire que le levain a faim : nourris-le plus souvent et garde-le au chaud.",
  ],
  [
    'panneaux',
    'Combien de panneaux solaires faut-il pour une maison de quatre personnes ?',
    'Compte environ dix à douze panneaux selon ta consommation et l’orientation du toit.',
  ],
  [
    'randonnee',
    'Que dois-je emporter pour une semaine de randonnée dans les Alpes ?',
    'Prends des couches chaudes, une veste imperméable, une trousse de secours et assez d’eau.',
  ],
  [
    'impots',
    'Comment déclarer mes revenus de location meublée cette année ?',
    'Tu peux choisir le régime micro-BIC si tes recettes restent sous le plafond annuel.',
  ],
  [
    'tap',
    'The kitchen faucet keeps dripping after I close it',
    'The washer or cartridge is worn: shut the water off and replace it.',
  ],
];
