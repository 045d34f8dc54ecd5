import type { SampleConversation } from './sample-chat.js';

/** The Claude.ai project the novel conversations belong to. */
export const novelProject = {
  uuid: '3b1e5c2a-7f40-4d8e-9a61-2c4f8e0d5b17',
  name: 'Novel: The Lighthouse Keeper',
  description: 'Drafting a short novel about a lighthouse keeper on the Cornish coast in 1962.',
  instructions:
    'You are a patient editor. Be honest about what does not work, quote the line you mean, and keep suggestions in my voice.',
  created_at: '2025-05-02T19:00:00.000000Z',
  updated_at: '2025-06-21T20:14:00.000000Z',
  docs: [
    {
      uuid: '9d2f7a10-4c3b-4e5f-8a9b-1c2d3e4f5a6b',
      filename: 'characters.md',
      content: `# Characters

- **Edwin Pascoe** (58): keeper of the Carrick Point light for 22 years. Quiet, precise, writes a weather log every four hours.
- **Mary Pascoe**: his late wife; appears in his memories and in the margins of the log.
- **Jory Trewin** (19): the new assistant keeper, sent from Penzance. Talks too much, plays the harmonica.
- **The inspector**: comes once a year from Trinity House; the novel ends with his visit.`,
      created_at: '2025-05-02T19:05:00.000000Z',
    },
    {
      uuid: '6e8a1b2c-3d4e-4f50-9a1b-2c3d4e5f6a7b',
      filename: 'style-notes.md',
      content: `# Style notes

Present tense, close third person on Edwin. Short chapters. Each chapter opens with a line from the weather log.`,
      created_at: '2025-05-02T19:06:00.000000Z',
    },
  ],
};

/** Conversations in the novel project. */
export const claudeNovel: SampleConversation[] = [
  {
    slug: 'novel-chapter-one',
    title: 'Feedback on chapter one',
    start: '2025-05-03T20:30:00Z',
    model: 'claude-sonnet-4-20250514',
    turns: [
      {
        user: 'Here is the opening of chapter one. Does it hook you? Be honest.',
        files: [
          {
            name: 'chapter-01.md',
            text: `03:00. Wind SW 5, veering W. Sea moderate. Visibility good.

Edwin climbs the hundred and twelve steps the way he has climbed them for twenty-two years: counting. At sixty he stops, not because he is tired, but because the sixtieth step is where Mary used to wait for him with the flask. The tea was always too sweet. He never told her.

At the top the lamp turns, patient as a clock, and throws its light across a sea that does not care whether anyone is watching. Edwin checks the wick, the clockwork, the glass. He writes the time in the log. Then, under it, in smaller letters, he writes: too sweet.`,
          },
        ],
        reply: `It hooks me – mostly because of one detail. "The tea was always too sweet. He never told her." tells me who Edwin is, what he has lost, and how he handles feelings, in nine words. And bringing it back at the end, in the log, is a lovely small payoff.

What works:
- The log line as an opener sets the rhythm you describe in your style notes, and the counting shows his precision without saying it.
- "patient as a clock" fits him, and the sea that "does not care" gives the loneliness without self-pity.

What I would look at:
- "the way he has climbed them for twenty-two years: counting" – the colon makes it feel slightly constructed. "He climbs the hundred and twelve steps counting, as he has for twenty-two years" is plainer and more him.
- "the wick, the clockwork, the glass" is good; one sensory detail here (the smell of paraffin, the warmth of the lamp room) would ground us before the ending.

Keep the last line exactly as it is.`,
      },
    ],
  },
  {
    slug: 'novel-names',
    title: 'Cornish names for minor characters',
    start: '2025-06-21T19:50:00Z',
    model: 'claude-sonnet-4-20250514',
    turns: [
      {
        user: 'I need names for three minor characters in the village: the postmistress, a fisherman who drinks, and a young schoolteacher who is new to the area. Cornish, 1960s, nothing too obvious.',
        before: {
          user: 'I need some Cornish names for characters',
          reply: `Some traditional Cornish surnames: Trelawny, Penrose, Tremayne, Polglase, Rowe, Nance, Hocking, Jago, Kitto, Chenoweth. First names popular in Cornwall in the mid century include Jenifer, Morwenna, Loveday, Ivor and Cyril. Which characters are they for?`,
        },
        reply: `Here are names that would sit naturally in a Cornish village in 1962 without feeling like a tourist's list:

- **The postmistress: Loveday Hocking.** *Loveday* is an old Cornish first name that was still around for women born in the 1900s, and *Hocking* is common and unshowy. She could be "Mrs Hocking" to everyone and "Loveday" only to Edwin.
- **The fisherman: Cyril Kitto.** *Kitto* is a West Cornwall surname; *Cyril* fits a man in his fifties then. The pub would call him "Kitto".
- **The schoolteacher: Ann Penrose**, or, if she is from upcountry, give her an English name instead – **Margaret Hale** – so her name marks her as an outsider as much as her accent does.

The contrast between Margaret and the Cornish names could do some quiet work for you.`,
      },
    ],
  },
];
