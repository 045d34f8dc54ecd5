import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownThread } from '../src/model/build-conversation.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { conversationErrors } from './support/pam-validator.js';
import { Folder } from '../src/folder/folder.js';

const S = 'sess-1';
const base = { sessionId: S, cwd: '/home/me/project', gitBranch: 'main', version: '2.1.71' };
const line = (value: Record<string, unknown>): string => JSON.stringify({ ...base, ...value });

describe('Claude Code import', () => {
  it('merges a reply split over lines, attaches tool results, bridges compaction, and reads a half-written session', async () => {
    const dir = tempDir();
    const project = join(dir, 'projects', '-home-me-project');
    mkdirSync(join(project, S, 'subagents'), { recursive: true });
    const lines = [
      line({
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        timestamp: '2026-01-01T10:00:00Z',
        message: { role: 'user', content: 'fix the bug' },
      }),
      line({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        timestamp: '2026-01-01T10:00:01Z',
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-opus-4',
          content: [{ type: 'thinking', thinking: 'look at the file' }],
        },
      }),
      line({
        type: 'assistant',
        uuid: 'a2',
        parentUuid: 'a1',
        timestamp: '2026-01-01T10:00:02Z',
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-opus-4',
          content: [{ type: 'text', text: 'Reading it.' }],
        },
      }),
      line({
        type: 'assistant',
        uuid: 'a3',
        parentUuid: 'a2',
        timestamp: '2026-01-01T10:00:03Z',
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-opus-4',
          content: [
            {
              type: 'tool_use',
              id: 't1',
              name: 'Read',
              input: { file_path: '/home/me/project/a.ts' },
            },
          ],
        },
      }),
      line({
        type: 'user',
        uuid: 'r1',
        parentUuid: 'a3',
        timestamp: '2026-01-01T10:00:04Z',
        toolUseResult: { type: 'text' },
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'const a = 1;' }],
        },
      }),
      line({
        type: 'system',
        uuid: 'c1',
        parentUuid: null,
        logicalParentUuid: 'r1',
        subtype: 'compact_boundary',
        timestamp: '2026-01-01T10:00:05Z',
        content: 'Conversation compacted',
      }),
      line({
        type: 'user',
        uuid: 'u2',
        parentUuid: 'c1',
        isMeta: true,
        timestamp: '2026-01-01T10:00:06Z',
        message: { role: 'user', content: '<system-reminder>x</system-reminder>' },
      }),
      line({
        type: 'assistant',
        uuid: 'a4',
        parentUuid: 'u2',
        timestamp: '2026-01-01T10:00:07Z',
        message: {
          id: 'msg_2',
          role: 'assistant',
          model: 'claude-opus-4',
          content: [{ type: 'text', text: 'Fixed.' }],
        },
      }),
      JSON.stringify({ type: 'ai-title', sessionId: S, aiTitle: 'Fix the bug' }),
      line({ type: 'file-history-snapshot', messageId: 'x' }),
      '{"type":"user","uuid":"cut","sessionId":"sess-1","message":{"role":"us',
    ];
    writeFileSync(join(project, `${S}.jsonl`), lines.join('\n'));
    const { conversations, report } = await convertToTemp([join(dir, 'projects')]);
    expect(conversations).toHaveLength(1);
    const c = conversations[0]!;
    expect(conversationErrors(c)).toEqual([]);
    expect(c.title).toBe('Fix the bug');
    expect(c.provider).toMatchObject({
      name: 'claude-code',
      conversation_id: S,
      export_format_version: 'claude-code/session/2.1.71',
    });
    expect(c.raw_metadata).toMatchObject({
      cwd: '/home/me/project',
      git_branch: 'main',
      cli_version: '2.1.71',
    });
    const thread = shownThread(c);
    expect(thread.map((m) => [m.role, m.is_thought, m.content?.text])).toEqual([
      ['user', false, 'fix the bug'],
      ['assistant', true, 'look at the file'],
      ['assistant', false, 'Reading it.'],
      ['system', false, 'Conversation compacted'],
      ['user', false, '<system-reminder>x</system-reminder>'],
      ['assistant', false, 'Fixed.'],
    ]);
    expect(thread[2]?.tool_calls).toEqual([
      {
        id: 't1',
        name: 'Read',
        input: { file_path: '/home/me/project/a.ts' },
        output: 'const a = 1;',
      },
    ]);
    expect(thread[4]?.raw_metadata).toMatchObject({ is_meta: true, hidden: true });
    expect(report.problems.map((p) => p.code)).toContain('session-being-written');
  });

  it('imports subagent sessions as their own conversations', async () => {
    const dir = tempDir();
    const project = join(dir, 'p');
    mkdirSync(join(project, S, 'subagents'), { recursive: true });
    writeFileSync(
      join(project, `${S}.jsonl`),
      line({
        type: 'user',
        uuid: 'u1',
        timestamp: '2026-01-01T10:00:00Z',
        message: { role: 'user', content: 'hi' },
      }),
    );
    writeFileSync(
      join(project, S, 'subagents', 'agent-abc.jsonl'),
      line({
        type: 'user',
        uuid: 'x1',
        agentId: 'abc',
        isSidechain: true,
        timestamp: '2026-01-01T10:00:01Z',
        message: { role: 'user', content: 'search the code' },
      }),
    );
    const { conversations } = await convertToTemp([project]);
    expect(conversations.map((c) => c.provider.conversation_id).sort()).toEqual([
      S,
      `${S}/agent-abc`,
    ]);
  });
});

describe('Claude Code in the graph', () => {
  it('links tool calls to files, sessions to their project and branch, sharing nodes across sessions', async () => {
    const { importExports } = await import('../src/data-folder/import-exports.js');
    const { SqliteStore } = await import('../src/stores/sqlite/sqlite-store.js');
    const { layoutOf } = await import('../src/folder/layout.js');
    const dir = tempDir();
    const project = join(dir, 'projects', '-home-me-project');
    mkdirSync(project, { recursive: true });
    for (const session of ['s1', 's2']) {
      writeFileSync(
        join(project, `${session}.jsonl`),
        [
          line({
            sessionId: session,
            type: 'user',
            uuid: `${session}-u`,
            timestamp: '2026-01-01T10:00:00Z',
            message: { role: 'user', content: 'edit a.ts' },
          }),
          line({
            sessionId: session,
            type: 'assistant',
            uuid: `${session}-a`,
            parentUuid: `${session}-u`,
            timestamp: '2026-01-01T10:00:01Z',
            message: {
              id: `m-${session}`,
              role: 'assistant',
              content: [
                {
                  type: 'tool_use',
                  id: `${session}-r`,
                  name: 'Read',
                  input: { file_path: '/home/me/project/a.ts' },
                },
                {
                  type: 'tool_use',
                  id: `${session}-w`,
                  name: 'Edit',
                  input: { file_path: '/home/me/project/a.ts', old_string: '1', new_string: '2' },
                },
              ],
            },
          }),
        ].join('\n'),
      );
    }
    const data = join(dir, 'data');
    await importExports(new Folder(data), [join(dir, 'projects')]);
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      expect(
        await store.cypher(
          `MATCH (p:Project)-[:HAS_SESSION]->(c:Conversation) RETURN p.path AS path, p.name AS name, count(c) AS sessions`,
        ),
      ).toEqual([{ path: '/home/me/project', name: 'project', sessions: 2 }]);
      expect(
        await store.cypher(
          `MATCH (c:Conversation)-[:ON_BRANCH]->(b:GitBranch) RETURN b.name AS branch, count(c) AS n`,
        ),
      ).toEqual([{ branch: 'main', n: 2 }]);
      const files = await store.cypher(
        `MATCH (m:Message)-[:USED_TOOL]->(t:ToolCall)-[r:READ_FILE|MODIFIED_FILE]->(f:File) RETURN f.path AS path, f.language AS language, type(r) AS kind, count(t) AS calls ORDER BY kind`,
      );
      expect(files).toEqual([
        { path: '/home/me/project/a.ts', language: 'typescript', kind: 'MODIFIED_FILE', calls: 2 },
        { path: '/home/me/project/a.ts', language: 'typescript', kind: 'READ_FILE', calls: 2 },
      ]);
      expect((await store.counts()).nodes).toMatchObject({
        File: 1,
        Project: 1,
        GitBranch: 1,
        ToolCall: 4,
      });
    } finally {
      await store.close();
    }
  });
});

describe('chatgraph import with no path', () => {
  it('reads Claude Code sessions from ~/.claude/projects', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { ROOT } = await import('./support/shared.js');
    const home = tempDir();
    const project = join(home, '.claude', 'projects', '-work-x');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 's9.jsonl'),
      line({
        sessionId: 's9',
        type: 'user',
        uuid: 'u',
        timestamp: '2026-01-01T10:00:00Z',
        message: { role: 'user', content: 'hello' },
      }),
    );
    const env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      CLAUDE_CONFIG_DIR: '',
    };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'dist', 'cli', 'main.js'), 'import', '--data-dir', join(home, 'data'), '--json'],
      { env },
    );
    const report = JSON.parse(stdout) as { providers: Record<string, { conversations: number }> };
    expect(report.providers['claude-code']?.conversations).toBe(1);
  });
});

describe('Claude Code subagents in the graph', () => {
  it('links the Task call that started a subagent to the subagent session', async () => {
    const { importExports } = await import('../src/data-folder/import-exports.js');
    const { SqliteStore } = await import('../src/stores/sqlite/sqlite-store.js');
    const { layoutOf } = await import('../src/folder/layout.js');
    const dir = tempDir();
    const project = join(dir, 'p');
    mkdirSync(join(project, S, 'subagents'), { recursive: true });
    writeFileSync(
      join(project, `${S}.jsonl`),
      [
        line({
          type: 'user',
          uuid: 'u1',
          timestamp: '2026-01-01T10:00:00Z',
          message: { role: 'user', content: 'research this' },
        }),
        line({
          type: 'assistant',
          uuid: 'a1',
          parentUuid: 'u1',
          timestamp: '2026-01-01T10:00:01Z',
          message: {
            id: 'm1',
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'task-1', name: 'Task', input: { description: 'search' } },
            ],
          },
        }),
        line({
          type: 'user',
          uuid: 'r1',
          parentUuid: 'a1',
          timestamp: '2026-01-01T10:00:09Z',
          toolUseResult: { agentId: 'abc', status: 'completed' },
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'task-1', content: 'found it' }],
          },
        }),
      ].join('\n'),
    );
    writeFileSync(
      join(project, S, 'subagents', 'agent-abc.jsonl'),
      line({
        type: 'user',
        uuid: 'x1',
        agentId: 'abc',
        isSidechain: true,
        timestamp: '2026-01-01T10:00:02Z',
        message: { role: 'user', content: 'search the code' },
      }),
    );
    const data = join(dir, 'data');
    await importExports(new Folder(data), [project]);
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      expect(
        await store.cypher(
          `MATCH (t:ToolCall)-[:STARTED]->(c:Conversation) RETURN t.name AS tool, c.conversation_id AS session`,
        ),
      ).toEqual([{ tool: 'Task', session: `${S}/agent-abc` }]);
    } finally {
      await store.close();
    }
  });
});

describe('Claude Code: what is kept and counted', () => {
  it('keeps the most complete of two entries with one uuid, and text given as plain strings', async () => {
    const dir = tempDir();
    const file = join(dir, 'sess-2.jsonl');
    const session = { ...base, sessionId: 'sess-2' };
    const entry = (value: Record<string, unknown>): string =>
      JSON.stringify({ ...session, ...value });
    writeFileSync(
      file,
      [
        entry({ type: 'user', uuid: 'x1', timestamp: '2026-01-01T10:00:00Z', message: 'error' }),
        entry({
          type: 'user',
          uuid: 'x2',
          timestamp: '2026-01-01T10:00:01Z',
          message: { role: 'user', contenst: [] },
        }),
        entry({
          type: 'user',
          uuid: 'x1',
          parentUuid: null,
          timestamp: '2026-01-01T10:00:00Z',
          message: { role: 'user', content: [{ type: 'text', text: 'the real first prompt' }] },
        }),
        entry({
          type: 'user',
          uuid: 'x2',
          parentUuid: 'x1',
          timestamp: '2026-01-01T10:00:01Z',
          message: { role: 'user', content: ['wow error'] },
        }),
      ].join('\n') + '\n',
    );
    const { conversations } = await convertToTemp([file]);
    const [conversation] = conversations;
    const texts = conversation?.messages.map((m) => m.content?.text);
    expect(texts).toEqual(['the real first prompt', 'wow error']);
    // No summary and no title: the first prompt names the session.
    expect(conversation?.title).toBe('the real first prompt');
    expect(conversation?.raw_metadata.title_from).toBe('first prompt');
  });

  it('counts what is written when a later copy of a session replaces an earlier one', async () => {
    const dir = tempDir();
    const project = join(dir, 'projects', '-p');
    mkdirSync(project, { recursive: true });
    const turn = (n: number, time: string): string =>
      line({
        type: 'user',
        uuid: `t${n}`,
        parentUuid: n === 0 ? null : `t${n - 1}`,
        timestamp: time,
        message: { role: 'user', content: `turn ${n}` },
      });
    // The same session twice (a copy left by a resume): the second is newer and longer.
    writeFileSync(join(project, 'a.jsonl'), `${turn(0, '2026-01-01T10:00:00Z')}\n`);
    writeFileSync(
      join(project, 'b.jsonl'),
      [0, 1, 2].map((n) => turn(n, `2026-01-01T10:00:0${n}Z`)).join('\n') + '\n',
    );
    const { conversations, report } = await convertToTemp([project]);
    expect(conversations).toHaveLength(1);
    const written = conversations.reduce((sum, c) => sum + c.messages.length, 0);
    expect(written).toBe(3);
    expect(report.totals.messages).toBe(written);
    expect(report.totals.conversations).toBe(1);
  });
});
