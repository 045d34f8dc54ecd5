import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';
import { SessionLog, graphOf, messagesOf } from './support/session-log.js';
import { startCli, type WatchProcess } from './support/watch-cli.js';

// Secrets of two shapes `--redact` masks (made up, of the real formats).
const ANTHROPIC_KEY = `sk-ant-api03-${'Zq7'.repeat(14)}`;
const GITHUB_TOKEN = `ghp_${'k9X2'.repeat(9)}`;

const running: WatchProcess[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) await watch.stop('SIGKILL');
});

function start(args: string[], env: NodeJS.ProcessEnv = process.env): WatchProcess {
  const w = startCli(args, env);
  running.push(w);
  return w;
}

/** Every file under `dir` (the data folder: bundle, store, its WAL, watch's state) holding `text`. */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesHolding(path, text));
    else if (readFileSync(path).includes(text)) found.push(path);
  }
  return found;
}

function sessionFolder(): { folder: string; log: SessionLog } {
  const folder = tempDir();
  mkdirSync(join(folder, '-work-app'));
  const log = new SessionLog(join(folder, '-work-app', 'sess-x.jsonl'), 'sess-x');
  log.append('deploy the service');
  log.append('which credentials should it use');
  return { folder, log };
}

describe('chatgraph watch --redact', () => {
  it('masks a secret appended to a followed session before it reaches the bundle or the store', async () => {
    const { folder, log } = sessionFolder();
    const data = tempDir();
    const w = start(['watch', folder, '--data-dir', data, '--redact']);
    await w.waitFor(/^following /);
    const at = w.lines.length;
    log.append(`use ${ANTHROPIC_KEY} for the API`);
    log.append(`and the token ${GITHUB_TOKEN} for the registry`);
    await w.waitFor(/^imported .*sess-x\.jsonl: .*\(4 messages\)/, at);
    expect(w.lines.slice(at).join('\n')).toMatch(/secrets? masked/);
    expect(await w.stop()).toBe(0);
    const messages = await messagesOf(data, 'sess-x');
    expect(messages).toContain('use [REDACTED:anthropic-key] for the API');
    expect(messages).toContain('and the token [REDACTED:github-token] for the registry');
    expect(filesHolding(data, ANTHROPIC_KEY)).toEqual([]);
    expect(filesHolding(data, GITHUB_TOKEN)).toEqual([]);
    // What import --redact makes of the same log, the Import marked as redacted.
    const fresh = tempDir();
    expect((await chatgraph('import', folder, '--data-dir', fresh, '--redact', '-q')).code).toBe(0);
    const graph = await graphOf(data);
    expect(graph).toEqual(await graphOf(fresh));
    expect(graph).toMatchObject({ imports: [{ redacted: true }] });
  }, 60_000);

  it('started with --redact after a plain watch, reads the logs again and masks what was written', async () => {
    const { folder, log } = sessionFolder();
    log.append(`use ${ANTHROPIC_KEY} for the API`);
    const data = tempDir();
    let w = start(['watch', folder, '--data-dir', data]);
    await w.waitFor(/^following /);
    expect(await w.stop()).toBe(0);
    expect(await messagesOf(data, 'sess-x')).toContain(`use ${ANTHROPIC_KEY} for the API`);
    w = start(['watch', folder, '--data-dir', data, '--redact']);
    await w.waitFor(/^imported .*sess-x\.jsonl: 3 lines? read.*1 secrets? masked/);
    await w.waitFor(/^following /);
    expect(await w.stop()).toBe(0);
    expect(await messagesOf(data, 'sess-x')).toContain('use [REDACTED:anthropic-key] for the API');
    expect(filesHolding(join(data, 'bundle'), ANTHROPIC_KEY)).toEqual([]);
    const found = await chatgraph('search', 'API', '--data-dir', data, '--format', 'json');
    expect(found.stdout).not.toContain(ANTHROPIC_KEY);
  }, 60_000);

  it('masks what a plain import wrote of a longer copy before merging it back', async () => {
    const { folder, log } = sessionFolder();
    log.append(`use ${ANTHROPIC_KEY} for the API`);
    log.append('and then deploy');
    const data = tempDir();
    expect((await chatgraph('import', folder, '--data-dir', data, '-q')).code).toBe(0);
    expect(filesHolding(join(data, 'bundle'), ANTHROPIC_KEY)).not.toEqual([]);
    // Cut short: the bundle's copy (with the secret) knows more, so watch merges it in.
    writeFileSync(
      log.path,
      readFileSync(log.path, 'utf8').split('\n').slice(0, 3).join('\n') + '\n',
    );
    const w = start(['watch', folder, '--data-dir', data, '--redact']);
    await w.waitFor(/^imported .*sess-x\.jsonl: 3 lines? read/);
    await w.waitFor(/^following /);
    expect(await w.stop()).toBe(0);
    const messages = await messagesOf(data, 'sess-x');
    expect(messages).toContain('use [REDACTED:anthropic-key] for the API');
    expect(messages).toContain('and then deploy');
    expect(filesHolding(join(data, 'bundle'), ANTHROPIC_KEY)).toEqual([]);
    const found = await chatgraph('search', 'API', '--data-dir', data, '--format', 'json');
    expect(found.stdout).not.toContain(ANTHROPIC_KEY);
  }, 60_000);

  it('serve --watch --redact masks what it follows too; --redact without --watch is refused', async () => {
    const home = tempDir();
    const projects = join(home, 'claude', 'projects', '-work-app');
    mkdirSync(projects, { recursive: true });
    const log = new SessionLog(join(projects, 'sess-y.jsonl'), 'sess-y');
    log.append('start the server');
    const { XDG_CONFIG_HOME: _xdg, ...rest } = process.env;
    const env = { ...rest, HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude') };
    const data = tempDir();
    const serve = start(['serve', '--watch', '--redact', '--data-dir', data, '--port', '0'], env);
    await serve.waitFor(/^chatgraph watch: following /);
    const at = serve.lines.length;
    log.append(`the key is ${ANTHROPIC_KEY}`);
    await serve.waitFor(/^chatgraph watch: imported .*sess-y\.jsonl: .*1 secrets? masked/, at);
    await serve.stop();
    expect(await messagesOf(data, 'sess-y')).toContain('the key is [REDACTED:anthropic-key]');
    expect(filesHolding(data, ANTHROPIC_KEY)).toEqual([]);
    const refused = await chatgraph('mcp', '--redact', '--data-dir', data);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--redact masks what --watch follows');
  }, 60_000);
});
