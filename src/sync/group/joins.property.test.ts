import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inviteMachine, joinGroup, openGroup } from './index.js';

// scrypt at 2^10 in tests only (2^18 in use, invite-code.ts); few runs: each is a few joins.
const FAST = { scryptLogN: 10 } as const;

const action = fc.oneof(
  fc.record({ kind: fc.constant('invite' as const), by: fc.nat(9) }),
  fc.record({ kind: fc.constant('join' as const), which: fc.nat(9) }),
);

describe('joins in any order', () => {
  it('every member verifies the same roster and opens what each seals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 8 }), async (actions) => {
        const root = mkdtempSync(join(tmpdir(), 'cg-joins-'));
        try {
          const dir = join(root, 'DIR');
          const configs = [join(root, 'm0')];
          await openGroup(dir, { configDir: configs[0] ?? '', create: true, name: 'm0' });
          const pending: string[] = [];
          const wanted = 3;
          let next = 1;
          const joinOne = async (index: number) => {
            const [code] = pending.splice(index % pending.length, 1);
            const config = join(root, `m${next}`);
            await joinGroup(dir, code ?? '', { configDir: config, name: `m${next}`, ...FAST });
            configs.push(config);
            next++;
          };
          for (const step of actions) {
            if (step.kind === 'invite' && next - 1 + pending.length < wanted) {
              const by = configs[step.by % configs.length] ?? '';
              pending.push((await inviteMachine(dir, { configDir: by, ...FAST })).code);
            } else if (step.kind === 'join' && pending.length > 0) await joinOne(step.which);
          }
          while (pending.length > 0) await joinOne(0);
          const groups = await Promise.all(
            configs.map((configDir) => openGroup(dir, { configDir, create: false })),
          );
          const roster = groups[0]?.members.map((m) => m.id).sort();
          expect(roster).toHaveLength(configs.length);
          for (const group of groups) {
            expect(group.refusals).toEqual([]);
            expect(group.members.map((m) => m.id).sort()).toEqual(roster);
          }
          for (const sealer of groups) {
            const sealed = sealer.seal(Buffer.from(sealer.self.id));
            for (const opener of groups)
              expect(Buffer.from(await opener.open(sealed)).toString()).toBe(sealer.self.id);
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 4 },
    );
  });
});
