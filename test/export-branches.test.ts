import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportFormat } from '../src/api/view.js';
import { DataFolder } from '../src/index.js';
import { msg, node } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';

/**
 * ChatGPT's exports open nearly every conversation with a hidden, empty system message (and,
 * with custom instructions, a hidden context message) above the first prompt. They are on the
 * path the platform showed, off the thread's NEXT chain: no branch. Written as real exports
 * have them (`client-created-root`, `is_visually_hidden_from_conversation`).
 */
const HIDDEN = { metadata: { is_visually_hidden_from_conversation: true } };

function conversation(
  id: string,
  title: string,
  current: string,
  nodes: [id: string, parent: string, children: string[], role: string, text: string][],
  extra: Record<string, Record<string, unknown>> = {},
): Record<string, unknown> {
  const first = nodes[0]?.[0] ?? '';
  const mapping: Record<string, unknown> = {
    'client-created-root': node('client-created-root', null, [first], null),
  };
  nodes.forEach(([nid, parent, children, role, text], i) => {
    mapping[nid] = node(nid, parent, children, msg(nid, role, text, 1_760_000_000 + i, extra[nid]));
  });
  return {
    id,
    conversation_id: id,
    title,
    create_time: 1_760_000_000,
    update_time: 1_760_000_100,
    current_node: current,
    mapping,
  };
}

const LINEAR = conversation(
  'linear-1',
  'Linear chat',
  'a1',
  [
    ['sys', 'client-created-root', ['u1'], 'system', ''],
    ['u1', 'sys', ['a1'], 'user', 'Why does bread go stale?'],
    ['a1', 'u1', [], 'assistant', 'Starch crystallises as it cools and dries.'],
  ],
  { sys: HIDDEN },
);

const INSTRUCTED = conversation(
  'instructed-1',
  'Linear chat with custom instructions',
  'a1',
  [
    ['sys', 'client-created-root', ['ctx'], 'system', ''],
    ['ctx', 'sys', ['u1'], 'user', 'Custom instructions: answer in one sentence.'],
    ['u1', 'ctx', ['a1'], 'user', 'How long do I boil an egg?'],
    ['a1', 'u1', [], 'assistant', 'Seven minutes for a jammy yolk.'],
  ],
  { sys: HIDDEN, ctx: HIDDEN },
);

// Two forks: an edited first prompt (two replies to the hidden system message) and a
// regenerated answer under the shown prompt.
const BRANCHED = conversation(
  'branched-1',
  'Branched chat',
  'a2b',
  [
    ['sys', 'client-created-root', ['u1', 'u2'], 'system', ''],
    ['u1', 'sys', ['a1'], 'user', 'Plan a trip to Rome (first try)'],
    ['a1', 'u1', [], 'assistant', 'Rome in three days: the Forum first.'],
    ['u2', 'sys', ['a2a', 'a2b'], 'user', 'Plan a weekend in Rome'],
    ['a2a', 'u2', [], 'assistant', 'A weekend: Trastevere on Saturday.'],
    ['a2b', 'u2', [], 'assistant', 'A weekend: the Vatican on Saturday morning.'],
  ],
  { sys: HIDDEN },
);

const MARKER = 'Another branch forks here';

let root = '';
let folder: DataFolder;
const written = new Map<ExportFormat, Map<string, string>>();

// Each conversation's file of a format, by the title it carries.
function fileOf(format: ExportFormat, title: string): string {
  const files = written.get(format) ?? new Map<string, string>();
  const found = [...files].find(([path]) => path.includes(title));
  expect(found, `${format}: ${title}`).toBeDefined();
  return found?.[1] ?? '';
}

beforeAll(async () => {
  root = tempDir();
  const made = join(root, 'conversations.json');
  writeFileSync(made, JSON.stringify([LINEAR, INSTRUCTED, BRANCHED]));
  folder = await DataFolder.open(join(root, 'data'));
  await folder.import([made], {});
  for (const format of ['markdown', 'obsidian', 'html'] as const) {
    const out = join(root, format);
    await folder.exportConversations({ format, out });
    const files = new Map<string, string>();
    for (const entry of readdirSync(out, { recursive: true, withFileTypes: true }))
      if (entry.isFile() && /\.(md|html)$/.test(entry.name))
        files.set(entry.name, readFileSync(join(entry.parentPath, entry.name), 'utf8'));
    written.set(format, files);
  }
}, 60_000);

afterAll(async () => {
  await folder.close();
});

describe('exported branches', () => {
  for (const format of ['markdown', 'obsidian', 'html'] as const) {
    it(`${format}: a linear conversation has no branch marker and no other branch`, () => {
      for (const title of ['Linear chat (', 'Linear chat with custom instructions']) {
        const text = fileOf(format, title);
        expect(text).not.toContain(MARKER);
        expect(text).not.toMatch(/Other branches|Branch 1/);
      }
    });

    it(`${format}: a branched conversation has the marker at each fork, once`, () => {
      const text = fileOf(format, 'Branched chat');
      expect(text.split(MARKER).length - 1).toBe(2);
      expect(text).toMatch(/Branch 2/);
      expect(text).not.toMatch(/Branch 3/);
      // Each branch counts its own messages: the first prompt's two, the other answer's one.
      // (the link closes as each format closes it: `](#branch-1)`, `]]`, `</a>`).
      expect(text).toMatch(/Branch 1(?:\]\(#branch-1\)|\]\]|<\/a>) \(2 messages\)/);
      expect(text).toMatch(/Branch 2(?:\]\(#branch-2\)|\]\]|<\/a>) \(1 message\)/);
      // The regenerated answer's branch forks after the shown prompt, not at the top.
      const prompt = text.indexOf('Plan a weekend in Rome');
      const second = text.lastIndexOf(MARKER);
      expect(prompt).toBeGreaterThan(0);
      expect(second).toBeGreaterThan(prompt);
    });

    it(`${format}: hidden context stays, folded, on the shown thread`, () => {
      const text = fileOf(format, 'Linear chat with custom instructions');
      expect(text).toContain('Custom instructions: answer in one sentence.');
      expect(text).toContain('Hidden context');
      expect(text.indexOf('Custom instructions')).toBeLessThan(
        text.indexOf('How long do I boil an egg?'),
      );
    });
  }
});
