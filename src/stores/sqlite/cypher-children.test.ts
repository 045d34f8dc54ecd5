import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchesOf, knownConversations } from '../../../test/support/graph-fixtures.js';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { QueryLimitError } from '../query-limits.js';
import { QueryError } from '../store.js';
import { CypherChildren } from './cypher-children.js';
import { SqliteStore } from './sqlite-store.js';
import { cleanUp } from '../../../test/support/clean-up.js';

const COUNT = 'MATCH (c:Conversation) RETURN count(c) AS n';
const ROOMY = { timeoutSeconds: 30, memoryMb: 2048 };

describe('user Cypher in a child process', () => {
  let file: string;
  let store: SqliteStore;
  let children: CypherChildren;
  let conversations: number;

  beforeAll(async () => {
    file = join(tempDir(), 'chatgraph.sqlite');
    store = SqliteStore.open(file);
    await store.upsert(batchesOf(await knownConversations()));
    store.flush();
    conversations = await store.conversationCount();
    children = new CypherChildren(file, undefined);
  });
  afterAll(
    cleanUp(async () => {
      children.close();
      await store.close();
    }),
  );

  it('refuses by how the query ran a write that no text check stopped, and the next query sees nothing of it', async () => {
    // Straight to the child, past the store's keyword check: the engine's counters refuse it.
    await expect(
      children.run(
        "MATCH (c:Conversation) WHERE c.source <> 'x//' REMOVE c:Conversation SET c:Project RETURN count(c) AS n",
        {},
        ROOMY,
      ),
    ).rejects.toThrow(/writes are refused/);
    await expect(
      children.run('MATCH (c:Conversation) SET c.title = "owned" RETURN c', {}, ROOMY),
    ).rejects.toThrow(/writes are refused/);
    expect(await children.run(COUNT, {}, ROOMY)).toEqual([{ n: conversations }]);
    expect(
      await children.run(
        'MATCH (c:Conversation) WHERE c.title = "owned" RETURN count(c) AS n',
        {},
        ROOMY,
      ),
    ).toEqual([{ n: 0 }]);
  });

  it('stops a query that eats memory at the memory limit, and answers the next one', async () => {
    const error: unknown = await children
      .run(
        'UNWIND range(1, 100000000) AS x RETURN collect(x) AS c',
        {},
        {
          timeoutSeconds: 60,
          memoryMb: 256,
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryLimitError);
    expect((error as Error).message).toBe('the query needed more than 256 MB and was stopped');
    expect((error as QueryLimitError).limit).toEqual({ kind: 'memory', value: 256 });
    expect(await children.run(COUNT, {}, ROOMY)).toEqual([{ n: conversations }]);
  });

  it('stops a slow query at its deadline while other queries are answered', async () => {
    const slow = children.run(
      'UNWIND range(1, 30000) AS a RETURN sum(reduce(s = 0, x IN range(1, 3000) | s + x * a)) AS n',
      {},
      { timeoutSeconds: 6, memoryMb: 4096 },
    );
    let slowSettled = false;
    const settled = slow.then(
      () => 'answered',
      (e: unknown) => e,
    );
    void settled.finally(() => {
      slowSettled = true;
    });
    // Answered while the slow one still runs.
    expect(await children.run(COUNT, {}, ROOMY)).toEqual([{ n: conversations }]);
    expect(slowSettled).toBe(false);
    const error = await settled;
    expect(error).toBeInstanceOf(QueryLimitError);
    expect((error as Error).message).toBe('the query ran longer than 6 s and was stopped');
    expect((error as QueryLimitError).limit).toEqual({ kind: 'timeout', value: 6 });
  });

  it('reports an error in the query as a QueryError in one line', async () => {
    const error: unknown = await children
      .run('MATCH (n RETURN n', {}, ROOMY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryError);
    expect((error as Error).message).not.toContain('\n');
  });
});
