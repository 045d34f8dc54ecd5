import { describe, expect, it } from 'vitest';
import { expandSidePatterns, folderIndex } from './side-patterns.js';

describe('expandSidePatterns', () => {
  const index = folderIndex([
    'logs/session_1/meta.json',
    'logs/session_1/messages.jsonl',
    'logs/session_1/agents/explore_a/meta.json',
    'logs/session_1/agents/explore_a/messages.jsonl',
    'logs/session_1/agents/explore_b/meta.json',
    'logs/session_1/agents/explore_b/deeper/x.json',
    'logs/session_2/meta.json',
  ]);

  it('names a file beside the claimed one, and nothing when the input lacks it', () => {
    expect(
      expandSidePatterns('logs/session_1/meta.json', ['messages.jsonl', 'missing.json'], index),
    ).toEqual([[{ name: 'messages.jsonl', path: 'logs/session_1/messages.jsonl' }], []]);
  });

  it('takes a folder segment * as each folder there that has the rest, named by it', () => {
    expect(
      expandSidePatterns(
        'logs/session_1/meta.json',
        ['agents/*/meta.json', 'agents/*/messages.jsonl'],
        index,
      ),
    ).toEqual([
      [
        { name: 'agents/explore_a/meta.json', path: 'logs/session_1/agents/explore_a/meta.json' },
        { name: 'agents/explore_b/meta.json', path: 'logs/session_1/agents/explore_b/meta.json' },
      ],
      [
        {
          name: 'agents/explore_a/messages.jsonl',
          path: 'logs/session_1/agents/explore_a/messages.jsonl',
        },
      ],
    ]);
    // Another session's folders are not its own.
    expect(expandSidePatterns('logs/session_2/meta.json', ['agents/*/meta.json'], index)).toEqual([
      [],
    ]);
  });
});
