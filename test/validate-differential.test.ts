import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatePam } from '../src/api/trust.js';
import { startPamValidator } from './support/pam-sdk.js';
import { pamSchemaDir } from './support/pam-validator.js';
import { CLI } from './support/run-cli.js';
import { ROOT } from './support/shared.js';

// Our validator and the official SDK's `pam validate` on one corpus: a valid bundle written by
// chatgraph convert, and copies of it each broken by one rule (or changed in a way both must
// accept). Every verdict must agree, and each broken case must be caught by the rule meant.

const root = mkdtempSync(join(tmpdir(), 'chatgraph-validate-'));
const base = join(root, 'base');
const SCHEMAS = pamSchemaDir();

interface MemoryJson {
  id: string;
  content?: string;
  type: string;
  custom_type?: string;
  status?: string;
  tags?: string[];
  temporal: Record<string, string>;
  provenance: Record<string, string>;
}
interface StoreJson {
  memories: MemoryJson[];
  integrity: { checksum: string; total_memories: number };
  relations?: unknown[];
  conversations_index: { derived_memories?: string[]; temporal: Record<string, string> }[];
  owner: { id?: string };
  colour?: string;
}
interface ConversationJson {
  messages?: { parent_id?: string; role: string }[];
}

/** The n-th memory (the bundle has five), the first index entry, the messages. */
const memory = (s: StoreJson, n = 0): MemoryJson => s.memories[n]!;
const entry = (s: StoreJson): StoreJson['conversations_index'][number] => s.conversations_index[0]!;
const messages = (c: ConversationJson) => c.messages!;

beforeAll(() => {
  execFileSync(process.execPath, [
    CLI,
    'convert',
    join(ROOT, 'samples', 'claude-export.zip'),
    '-o',
    base,
    '-q',
  ]);
}, 60_000);

// One Python process runs the official `pam validate` of every case.
const pam = startPamValidator();

afterAll(() => {
  pam.close();
  rmSync(root, { recursive: true, force: true });
});

function sha(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The §15 checksum made again after a change that is not meant to break it. */
function rehash(store: StoreJson): void {
  const sorted = [...store.memories].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  store.integrity.checksum = sha(canonicalize(sorted) ?? '[]');
  store.integrity.total_memories = store.memories.length;
}

function editJson(file: string, edit: (json: StoreJson & ConversationJson) => void): void {
  const json = JSON.parse(readFileSync(file, 'utf8')) as StoreJson & ConversationJson;
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

const store = (edit: (s: StoreJson) => void) => (dir: string) => {
  editJson(join(dir, 'memory-store.json'), edit);
};
const firstConversation = (edit: (c: ConversationJson) => void) => (dir: string) => {
  const name = readdirSync(join(dir, 'conversations')).sort()[0]!;
  editJson(join(dir, 'conversations', name), edit);
};

interface Case {
  name: string;
  change: (dir: string) => void;
  /** The rule our validator must name, for a case both must reject. */
  rule?: string;
}

const CASES: Case[] = [
  { name: 'the bundle as written', change: () => undefined },
  {
    name: 'a custom memory with its custom_type',
    change: store((s) => {
      memory(s).type = 'custom';
      memory(s).custom_type = 'recipe';
      rehash(s);
    }),
  },
  {
    name: 'a relation between two memories',
    change: store((s) => {
      s.relations = [
        {
          id: 'r1',
          from: memory(s).id,
          to: memory(s, 1).id,
          type: 'supports',
          created_at: '2025-01-01T00:00:00Z',
        },
      ];
    }),
  },
  {
    name: 'a relation of a memory to itself (a warning)',
    change: store((s) => {
      s.relations = [
        {
          id: 'r1',
          from: memory(s).id,
          to: memory(s).id,
          type: 'related_to',
          created_at: '2025-01-01T00:00:00Z',
        },
      ];
    }),
  },
  {
    name: 'superseded with no superseded_by (a warning)',
    change: store((s) => {
      memory(s).status = 'superseded';
      rehash(s);
    }),
  },
  {
    name: 'a message whose parent is missing (a warning)',
    change: firstConversation((c) => {
      messages(c)[messages(c).length - 1]!.parent_id = 'no-such-message';
    }),
  },
  {
    name: 'a content_hash that is not the content’s',
    rule: 'content-hash',
    change: store((s) => {
      memory(s).content = `${memory(s).content} and more`;
      rehash(s);
    }),
  },
  {
    name: 'integrity.total_memories wrong',
    rule: 'integrity-total',
    change: store((s) => {
      s.integrity.total_memories += 1;
    }),
  },
  {
    name: 'integrity.checksum wrong',
    rule: 'integrity-checksum',
    change: store((s) => {
      s.integrity.checksum = `sha256:${'0'.repeat(64)}`;
    }),
  },
  {
    name: 'a memory changed after the checksum',
    rule: 'integrity-checksum',
    change: store((s) => {
      memory(s).tags = ['changed'];
    }),
  },
  {
    name: 'two memories with one id',
    rule: 'id-unique',
    change: store((s) => {
      s.memories.push({ ...memory(s) });
      rehash(s);
    }),
  },
  {
    name: 'a relation to a memory that is not there',
    rule: 'xref-relation',
    change: store((s) => {
      s.relations = [
        {
          id: 'r1',
          from: memory(s).id,
          to: 'nobody',
          type: 'supports',
          created_at: '2025-01-01T00:00:00Z',
        },
      ];
    }),
  },
  {
    name: 'a conversation_ref not in the index',
    rule: 'xref-conversation',
    change: store((s) => {
      memory(s).provenance.conversation_ref = 'no-such-conversation';
      rehash(s);
    }),
  },
  {
    name: 'superseded_by a memory that is not there',
    rule: 'xref-superseded',
    change: store((s) => {
      memory(s).status = 'superseded';
      memory(s).temporal.superseded_by = 'nobody';
      rehash(s);
    }),
  },
  {
    name: 'derived_memories naming a memory that is not there',
    rule: 'xref-derived',
    change: store((s) => {
      entry(s).derived_memories = ['nobody'];
    }),
  },
  {
    name: 'a memory updated before it was made',
    rule: 'temporal',
    change: store((s) => {
      memory(s).temporal.updated_at = '1999-01-01T00:00:00Z';
      rehash(s);
    }),
  },
  {
    name: 'a memory valid until before it is valid from',
    rule: 'temporal',
    change: store((s) => {
      memory(s).temporal.valid_from = '2025-02-01T00:00:00Z';
      memory(s).temporal.valid_until = '2025-01-01T00:00:00Z';
      rehash(s);
    }),
  },
  {
    name: 'an index entry updated before it was made',
    rule: 'temporal',
    change: store((s) => {
      entry(s).temporal.updated_at = '1999-01-01T00:00:00Z';
    }),
  },
  {
    name: 'type custom without custom_type',
    rule: 'custom-type',
    change: store((s) => {
      memory(s).type = 'custom';
      rehash(s);
    }),
  },
  {
    name: 'a custom_type on a memory that is not custom',
    rule: 'custom-type',
    change: store((s) => {
      memory(s).custom_type = 'recipe';
      rehash(s);
    }),
  },
  {
    name: 'a memory without content',
    rule: 'schema',
    change: store((s) => {
      delete memory(s).content;
      rehash(s);
    }),
  },
  {
    name: 'a memory type not in the enum',
    rule: 'schema',
    change: store((s) => {
      memory(s).type = 'opinion';
      rehash(s);
    }),
  },
  {
    name: 'a tag with capitals',
    rule: 'schema',
    change: store((s) => {
      memory(s).tags = ['Capital'];
      rehash(s);
    }),
  },
  {
    name: 'an owner without id',
    rule: 'schema',
    change: store((s) => {
      delete s.owner.id;
    }),
  },
  {
    name: 'a field PAM does not have, at the root',
    rule: 'schema',
    change: store((s) => {
      s.colour = 'blue';
    }),
  },
  {
    name: 'a conversation without messages',
    rule: 'schema',
    change: firstConversation((c) => {
      delete c.messages;
    }),
  },
  {
    name: 'a message role not in the enum',
    rule: 'schema',
    change: firstConversation((c) => {
      messages(c)[0]!.role = 'narrator';
    }),
  },
  {
    name: 'a conversation file that is not JSON',
    rule: 'json',
    change: (dir) => {
      const name = readdirSync(join(dir, 'conversations')).sort()[0]!;
      writeFileSync(join(dir, 'conversations', name), '{"schema": ');
    },
  },
];

describe('chatgraph validate agrees with the official pam validate', () => {
  for (const [i, c] of CASES.entries())
    it(c.name, async () => {
      const dir = join(root, `case-${i}`);
      cpSync(base, dir, { recursive: true });
      c.change(dir);
      const official = await pam.validate(dir);
      const ours = await validatePam(dir, { schemas: SCHEMAS });
      const errors = ours.findings.filter((f) => f.level === 'error');
      // The corpus is what it says: a broken case is broken for the official validator too.
      expect(official.status === 0, official.output).toBe(c.rule === undefined);
      expect(ours.valid, JSON.stringify(errors, null, 2)).toBe(official.status === 0);
      if (c.rule) {
        expect(errors.map((f) => f.rule)).toContain(c.rule);
        for (const finding of errors) {
          expect(finding.file.startsWith(dir)).toBe(true);
          expect(finding.path).toMatch(/^\$/);
        }
      }
    });
});
