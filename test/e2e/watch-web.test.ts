import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { tempDir } from '../support/convert-to-temp.js';
import { startCli, type WatchProcess } from '../support/watch-cli.js';
import { cleanUp } from '../support/clean-up.js';

/** `serve --watch` in Chromium: the list and an open conversation update as sessions are written. */
function line(
  session: string,
  uuid: string,
  parent: string | null,
  role: string,
  text: string,
): string {
  return `${JSON.stringify({
    type: role,
    uuid,
    parentUuid: parent,
    sessionId: session,
    timestamp: '2026-01-01T10:00:00.000Z',
    message:
      role === 'assistant'
        ? { id: `m-${uuid}`, role, content: [{ type: 'text', text }] }
        : { role, content: text },
  })}\n`;
}

let serve: WatchProcess;
let base = '';
let browser: Browser;
let projects = '';

beforeAll(async () => {
  const dir = tempDir();
  projects = join(dir, 'claude', 'projects', '-work-app');
  mkdirSync(projects, { recursive: true });
  writeFileSync(
    join(projects, 'first.jsonl'),
    line('first', 'a1', null, 'user', 'the first session'),
  );
  const { XDG_CONFIG_HOME: _xdg, ...rest } = process.env;
  const env = { ...rest, HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude') };
  serve = startCli(['serve', '--watch', '--data-dir', join(dir, 'data'), '--port', '0'], env);
  base = (/web app at (http:\/\/\S+?)\/?$/.exec(await serve.waitFor(/web app at /)) ?? [])[1] ?? '';
  await serve.waitFor(/^chatgraph watch: following /);
  browser = await launchChromium();
}, 60_000);

afterAll(
  cleanUp(async () => {
    await browser.close();
    await serve.stop();
  }),
);

describe('the web app with serve --watch', () => {
  it('shows a new session in the list and a new message in the open conversation', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await page.locator('a.conversation-link', { hasText: 'the first session' }).waitFor();
    writeFileSync(
      join(projects, 'second.jsonl'),
      line('second', 'b1', null, 'user', 'a second session appears'),
    );
    await page.locator('a.conversation-link', { hasText: 'a second session appears' }).waitFor();

    await page.locator('a.conversation-link', { hasText: 'the first session' }).click();
    await page.getByText('the first session').first().waitFor();
    appendFileSync(
      join(projects, 'first.jsonl'),
      line('first', 'a2', 'a1', 'assistant', 'a reply written while the page was open'),
    );
    await page.getByText('a reply written while the page was open').waitFor();
    expect(page.url()).toContain('#/c/');
    await page.close();
  }, 60_000);
});
