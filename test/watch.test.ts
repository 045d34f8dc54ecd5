import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { CLI, chatgraph } from './support/run-cli.js';
import { messagesOf } from './support/session-log.js';
import { ROOT } from './support/shared.js';
import { startCli, type WatchProcess } from './support/watch-cli.js';

// Session lines as Claude Code writes them: a chain of user and assistant entries.
let counter = 0;
function entry(session: string, parent: string | null, role: 'user' | 'assistant', text: string) {
  const uuid = `${session}-u${++counter}`;
  const value = {
    type: role,
    uuid,
    parentUuid: parent,
    sessionId: session,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(),
    cwd: '/work/app',
    message:
      role === 'assistant'
        ? { id: `msg-${uuid}`, role, model: 'claude-sonnet-4', content: [{ type: 'text', text }] }
        : { role, content: text },
  };
  return { uuid, line: `${JSON.stringify(value)}\n` };
}

function session(path: string, id: string, texts: string[]): string {
  let parent: string | null = null;
  const lines: string[] = [];
  for (const [i, text] of texts.entries()) {
    const made = entry(id, parent, i % 2 === 0 ? 'user' : 'assistant', text);
    lines.push(made.line);
    parent = made.uuid;
  }
  writeFileSync(path, lines.join(''));
  return parent ?? '';
}

const running: WatchProcess[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) await watch.stop('SIGKILL');
});

function watch(
  folder: string,
  data: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): WatchProcess {
  const process_ = startCli(['watch', folder, '--data-dir', data, ...extra], env);
  running.push(process_);
  return process_;
}

describe('chatgraph watch', () => {
  it('imports appends, new sessions, subagent files, rewritten, truncated and half-written logs as they happen', async () => {
    const folder = tempDir();
    const data = tempDir();
    mkdirSync(join(folder, '-work-app'));
    const log = join(folder, '-work-app', 'sess-a.jsonl');
    let parent = session(log, 'sess-a', ['hello there', 'hi, how can I help']);
    const w = watch(folder, data);
    await w.waitFor(/^following .*1 session log/);
    expect(await messagesOf(data, 'sess-a')).toHaveLength(2);

    // An append: only the new line is read.
    let at = w.lines.length;
    let made = entry('sess-a', parent, 'user', 'the quokka appended later');
    parent = made.uuid;
    appendFileSync(log, made.line);
    await w.waitFor(/^imported .*sess-a\.jsonl: 1 lines? read.*\(3 messages\)/, at);
    expect(await messagesOf(data, 'sess-a')).toContain('the quokka appended later');

    // A new session, then its subagent's log in subagents/.
    at = w.lines.length;
    session(join(folder, '-work-app', 'sess-b.jsonl'), 'sess-b', ['second session', 'ok']);
    await w.waitFor(/^imported .*sess-b\.jsonl: 2 lines? read/, at);
    at = w.lines.length;
    mkdirSync(join(folder, '-work-app', 'sess-b', 'subagents'), { recursive: true });
    session(join(folder, '-work-app', 'sess-b', 'subagents', 'agent-x1.jsonl'), 'sess-b', [
      'subagent task',
      'subagent answer',
    ]);
    await w.waitFor(/^imported .*agent-x1\.jsonl: 2 lines? read/, at);
    expect(await messagesOf(data, 'sess-b/agent-x1')).toEqual(['subagent task', 'subagent answer']);
    expect(await messagesOf(data, 'sess-b')).toEqual(['second session', 'ok']);
    // A deleted log is no longer followed; what was imported from it stays.
    at = w.lines.length;
    rmSync(join(folder, '-work-app', 'sess-b.jsonl'));
    await w.waitFor(/^gone .*sess-b\.jsonl/, at);
    expect(await messagesOf(data, 'sess-b')).toEqual(['second session', 'ok']);

    // A half-written line waits for its end.
    at = w.lines.length;
    made = entry('sess-a', parent, 'assistant', 'an answer written in two parts');
    parent = made.uuid;
    appendFileSync(log, made.line.slice(0, 40));
    await w.waitFor(/^waiting .*sess-a\.jsonl/, at);
    expect(await messagesOf(data, 'sess-a')).toHaveLength(3);
    appendFileSync(log, made.line.slice(40));
    await w.waitFor(/^imported .*sess-a\.jsonl: 1 lines? read.*\(4 messages\)/, at);
    // A last line without its newline that parses counts once it stops growing.
    at = w.lines.length;
    made = entry('sess-a', parent, 'user', 'no newline at the end');
    appendFileSync(log, made.line.trimEnd());
    await w.waitFor(/^imported .*sess-a\.jsonl: 1 lines? read.*\(5 messages\)/, at);
    expect(await messagesOf(data, 'sess-a')).toContain('no newline at the end');

    // Rewritten: the start changed, so the log is read again whole; what was imported stays.
    const imported = await messagesOf(data, 'sess-a');
    at = w.lines.length;
    session(log, 'sess-a', ['a rewritten start', 'with another answer', 'and a third line']);
    await w.waitFor(/^rewritten .*sess-a\.jsonl/, at);
    await w.waitFor(/^imported .*sess-a\.jsonl: 3 lines? read.*\(3 messages\)/, at);
    const rewritten = ['a rewritten start', 'with another answer', 'and a third line'];
    expect(await messagesOf(data, 'sess-a')).toEqual([...rewritten, ...imported]);
    // Truncated: shorter than what was read; nothing imported is lost.
    at = w.lines.length;
    session(log, 'sess-a', ['cut short']);
    await w.waitFor(/^imported .*sess-a\.jsonl: 1 lines? read.*\(1 message\)/, at);
    expect([...(await messagesOf(data, 'sess-a'))].sort()).toEqual(
      ['cut short', ...rewritten, ...imported].sort(),
    );
    expect(await w.stop()).toBe(0);
    expect(w.lines.at(-1)).toBe('stopped');
  }, 60_000);

  it('imports an export dropped into a watched folder once it has landed', async () => {
    const folder = tempDir();
    const data = tempDir();
    const w = watch(folder, data);
    await w.waitFor(/^following .*0 session logs?, 0 export/);
    const at = w.lines.length;
    copyFileSync(join(ROOT, 'samples', 'chatgpt-export.zip'), join(folder, 'export.zip'));
    const line = await w.waitFor(/^export .*export\.zip: \d+ conversation/, at);
    expect(Number(/(\d+) conversation/.exec(line)?.[1])).toBeGreaterThan(0);
    const search = await chatgraph('search', 'sourdough', '--data-dir', data, '--format', 'json');
    expect(search.code).toBe(0);
    expect(
      (JSON.parse(search.stdout) as { conversations: unknown[] }).conversations.length,
    ).toBeGreaterThan(0);
  }, 60_000);

  it('loses nothing and writes nothing twice when killed with kill -9 and restarted', async () => {
    const folder = tempDir();
    const data = tempDir();
    mkdirSync(join(folder, '-work-app'));
    const log = join(folder, '-work-app', 'sess-k.jsonl');
    let parent = session(log, 'sess-k', ['first', 'second']);
    let w = watch(folder, data);
    await w.waitFor(/^following /);
    // Appends while it runs, killed right after the last one was taken in…
    for (let i = 0; i < 5; i++) {
      const at = w.lines.length;
      const made = entry('sess-k', parent, i % 2 === 0 ? 'user' : 'assistant', `running ${i}`);
      parent = made.uuid;
      appendFileSync(log, made.line);
      await w.waitFor(/^imported .*sess-k/, at);
    }
    await w.stop('SIGKILL');
    // …and while it is down.
    for (let i = 0; i < 3; i++) {
      const made = entry('sess-k', parent, i % 2 === 0 ? 'user' : 'assistant', `while down ${i}`);
      parent = made.uuid;
      appendFileSync(log, made.line);
    }
    w = watch(folder, data);
    await w.waitFor(/^imported .*sess-k\.jsonl: 10 lines? read.*\(10 messages\)/);
    await w.waitFor(/^following /);
    await w.stop();
    const messages = await messagesOf(data, 'sess-k');
    expect(messages).toHaveLength(10);
    expect(new Set(messages).size).toBe(10);
    // The same as importing the log afresh: bundle file and store.
    const fresh = tempDir();
    expect((await chatgraph('import', folder, '--data-dir', fresh, '-q')).code).toBe(0);
    expect(await messagesOf(fresh, 'sess-k')).toEqual(messages);
    const bundleOf = (dir: string) => {
      const files = readdirSync(join(dir, 'bundle', 'conversations'));
      return files.map((f) => {
        const { import_metadata: _meta, ...rest } = JSON.parse(
          readFileSync(join(dir, 'bundle', 'conversations', f), 'utf8'),
        ) as Record<string, unknown>;
        return rest;
      });
    };
    expect(bundleOf(data)).toEqual(bundleOf(fresh));
    // Restarted with nothing new: nothing is read.
    w = watch(folder, data);
    const at = w.lines.length;
    await w.waitFor(/^following /);
    expect(w.lines.slice(at).filter((l) => l.startsWith('imported'))).toEqual([]);
  }, 60_000);
});

describe('chatgraph watch --embed', () => {
  it('embeds new messages where the data folder has vectors, so search by meaning finds them', async () => {
    const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };
    const folder = tempDir();
    const data = tempDir();
    mkdirSync(join(folder, '-work-app'));
    const log = join(folder, '-work-app', 'sess-e.jsonl');
    const parent = session(log, 'sess-e', ['which train goes to the airport', 'the blue line']);
    execFileSync(process.execPath, [CLI, 'import', folder, '--data-dir', data, '--embed', '-q'], {
      env,
    });
    const w = watch(folder, data, ['--embed'], env);
    await w.waitFor(/^following /);
    const at = w.lines.length;
    appendFileSync(
      log,
      entry('sess-e', parent, 'user', 'my sourdough starter smells like nail polish').line,
    );
    await w.waitFor(/^embedded [1-9]\d* new chunk/, at);
    const found = JSON.parse(
      execFileSync(
        process.execPath,
        [
          CLI,
          'search',
          'bread leaven with a chemical odour',
          '--mode',
          'semantic',
          '--format',
          'json',
          '--data-dir',
          data,
        ],
        { env, encoding: 'utf8' },
      ),
    ) as { conversations: { best: { snippet: string } }[] };
    expect(found.conversations[0]?.best.snippet).toContain('nail polish');
  }, 120_000);
});
