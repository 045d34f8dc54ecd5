import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/chromium.mjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASTED_UNNAMED, pastedClaudeConversation } from '../support/attachment-fixtures.js';
import { branchedConversation, msg, node } from '../support/chatgpt-builder.js';
import { CELL, codeCellConversation } from '../support/code-cell-fixture.js';
import { tempDir } from '../support/convert-to-temp.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT, fixturesOf } from '../support/shared.js';
import { execFileSync } from 'node:child_process';
import { cleanUp } from '../support/clean-up.js';
import { importSamples } from '../support/bundled-samples.js';

/**
 * The web app end to end: the built CLI serves an imported data folder of test fixtures, and a
 * second one of the bundled samples; Debian's Chromium (driven by playwright-core) uses them as
 * a person would. Each test leaves a screenshot in test-output/screenshots; the pages at every
 * size show the samples, as a newcomer sees them (and the fixtures' list and code cell too).
 */
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SHOTS = join(ROOT, 'test-output', 'screenshots');

// Chat text made to attack the page: none of it may run.
const HOSTILE = [
  'Here is my answer <script>window.__xss = "script"</script>',
  '<img src="x" onerror="window.__xss = \'img\'">',
  '[click me](javascript:window.__xss=%22link%22)',
  '<svg onload="window.__xss = \'svg\'"><circle r="4"/></svg>',
  '<iframe src="javascript:parent.__xss=\'iframe\'"></iframe>',
  '```js\nconsole.log("<b>code</b>")\n```',
].join('\n\n');

function hostileConversation(): Record<string, unknown> {
  return {
    id: 'xss-1',
    conversation_id: 'xss-1',
    title: '<img src=x onerror="window.__xss=\'title\'"> Hostile',
    create_time: 1_705_000_000,
    update_time: 1_705_000_100,
    current_node: 'a',
    mapping: {
      root: node('root', null, ['u'], null),
      u: node(
        'u',
        'root',
        ['a'],
        msg('u', 'user', '<script>window.__xss="user"</script> hi', 1_705_000_001),
      ),
      a: node('a', 'u', [], msg('a', 'assistant', HOSTILE, 1_705_000_002)),
    },
  };
}

let server: ChildProcess;
let base: string;
let samples: { server: ChildProcess; base: string };
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dir = tempDir();
  const data = join(dir, 'data');
  const made = join(dir, 'conversations.json');
  writeFileSync(
    made,
    JSON.stringify([
      branchedConversation('gpt-a', 'Alpha about sourdough'),
      hostileConversation(),
      codeCellConversation(),
      branchedConversation('doomed-1', 'Doomed to deletion'),
    ]),
  );
  const pasted = join(dir, 'pasted.json');
  writeFileSync(pasted, JSON.stringify([pastedClaudeConversation()]));
  execFileSync('node', [
    CLI,
    'import',
    ...fixturesOf('chatgpt'),
    ...fixturesOf('claude-ai'),
    ...fixturesOf('claude-code'),
    made,
    pasted,
    '--data-dir',
    data,
    '--deep',
    '--quiet',
  ]);
  ({ server, base } = await startServe(data));
  const sampleData = join(dir, 'samples');
  importSamples(sampleData);
  samples = await startServe(sampleData);
  browser = await launchChromium();
}, 120_000);

afterAll(
  cleanUp(async () => {
    await browser.close();
    server.kill();
    samples.server.kill();
  }),
);

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    // A refused request (a bad date, a write in the console) is the app's to show, not an error.
    if (message.type() === 'error' && !/status of 400/.test(message.text()))
      errors.push(message.text());
  });
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
});

afterEach(async () => {
  await page.close();
  expect(errors).toEqual([]);
});

const shot = (name: string): Promise<Buffer> =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

describe('the web app in Chromium', () => {
  it('lists conversations and filters them', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('.conversation-row');
    const all = await page.locator('.conversation-row').count();
    expect(all).toBeGreaterThan(5);
    await page.selectOption('#list-filters select[name=source]', 'claude-ai');
    await page.click('#list-filters button[type=submit]');
    await page.waitForFunction(() => location.hash.includes('source=claude-ai'));
    // The address changes before its 'hashchange' event runs: rows seen just then are the old
    // list's, about to be taken away (read then, they were none, and the test failed on a busy
    // machine). Wait for the list to change, then read it.
    await page.waitForFunction((before) => {
      const rows = document.querySelectorAll('.conversation-row').length;
      return rows > 0 && rows !== before;
    }, all);
    const sources = await page.locator('.conversation-row .source').allTextContents();
    expect(new Set(sources)).toEqual(new Set(['claude-ai']));
    expect(sources.length).toBeLessThan(all);
    await page.selectOption('#list-filters select[name=source]', '');
    await page.check('#list-filters input[name=branches]');
    await page.click('#list-filters button[type=submit]');
    await page.waitForFunction(() => location.hash.includes('branches=1'));
    await page.locator('a.conversation-link', { hasText: /^Alpha about sourdough$/ }).waitFor();
    await page.uncheck('#list-filters input[name=branches]');
    await page.click('#list-filters button[type=submit]');
    await page.waitForSelector('.conversation-row');
    await shot('conversations');
  });

  it('opens a branched conversation and switches branch', async () => {
    await page.goto(`${base}/#/?title=alpha`);
    await page.click('a.conversation-link:has-text("Alpha about sourdough")');
    await page.waitForSelector('article.message');
    const texts = (): Promise<string[]> => page.locator('article.message .body').allTextContents();
    expect((await texts()).map((t) => t.trim())).toEqual(['hello', 'second answer']);
    expect(await page.locator('.branch-position').allTextContents()).toEqual(['2 / 2']);
    await page.click('.branch-prev');
    await page.locator('article.message .body', { hasText: /^\s*first answer\s*$/ }).waitFor();
    expect((await texts()).map((t) => t.trim())).toEqual(['hello', 'first answer']);
    expect(await page.locator('.branch-position').allTextContents()).toEqual(['1 / 2']);
    await shot('branch-switcher');
  });

  it('searches as you type and jumps to the hit', async () => {
    await page.goto(`${base}/#/search`);
    await page.fill('#search-input', 'first answ');
    await page.keyboard.type('er');
    const hit = page.locator('a.hit').first();
    await hit.waitFor();
    await hit.locator('mark', { hasText: /first/i }).first().waitFor();
    await shot('search');
    await hit.click();
    const focused = page.locator('article.message.focus');
    await focused.waitFor();
    // The hit is on a branch the platform did not show: the switcher went to it.
    await focused.locator('.body', { hasText: /^\s*first answer\s*$/ }).waitFor();
    expect(await page.locator('.branch-position').allTextContents()).toEqual(['1 / 2']);
  });

  it('offers "did you mean" as a link that runs the search, keeping the mode', async () => {
    await page.goto(`${base}/#/search?q=frist%20answer&mode=keyword`);
    const suggestion = page.locator('p.hint a');
    await suggestion.waitFor();
    expect(await page.locator('p.hint').textContent()).toBe('Did you mean first answer?');
    await suggestion.click();
    await page.locator('a.hit mark', { hasText: /first/i }).first().waitFor();
    const params = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
    expect([params.get('q'), params.get('mode')]).toEqual(['first answer', 'keyword']);
  });

  it('opens a conversation at a message by their short ids (#/c/<8 chars>?m=<8 chars>)', async () => {
    await page.goto(`${base}/`);
    const { id, message } = await page.evaluate(async () => {
      const list = (await (await fetch('/api/conversations?title=alpha')).json()) as {
        items: { id: string }[];
      };
      const first = list.items[0]?.id ?? '';
      const read = (await (await fetch(`/api/conversations/${first}`)).json()) as {
        messages: { id: string; content: string }[];
      };
      const answer = read.messages.find((m) => m.content === 'first answer')?.id ?? '';
      return { id: first, message: answer };
    });
    const part = message.slice(message.indexOf(':') + 1);
    await page.goto(`${base}/#/c/${id.slice(0, 8)}?m=${part.slice(0, 8)}`);
    const focused = page.locator('article.message.focus');
    await focused.waitFor();
    // The short message id found its message, on a branch the platform did not show.
    await focused.locator('.body', { hasText: /^\s*first answer\s*$/ }).waitFor();
    expect(await page.locator('.branch-position').allTextContents()).toEqual(['1 / 2']);
  });

  it('shows one card per conversation, whose other passages unfold and open at their message', async () => {
    await page.goto(`${base}/#/search?q=answer&mode=keyword`);
    const cards = page.locator('#search-results section.hit-card');
    await cards.first().waitFor();
    const ids = await cards.evaluateAll((all) =>
      all.map((c) => c.getAttribute('data-conversation')),
    );
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    const alpha = cards.filter({ hasText: 'Alpha about sourdough' });
    await expect(alpha.count()).resolves.toBe(1);
    const more = alpha.locator('details.more-passages summary');
    expect(await more.innerText()).toBe('1 more in this conversation');
    const passage = alpha.locator('a.hit-passage');
    expect(await passage.isVisible()).toBe(false);
    await more.click();
    await passage.waitFor({ state: 'visible' });
    await expect(passage.locator('mark').innerText()).resolves.toMatch(/answer/i);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      1280,
    );
    await passage.click();
    await page.locator('article.message.focus').waitFor();
  });

  it('draws the graph of a conversation, and a click shows a node', async () => {
    await page.goto(`${base}/#/?title=alpha`);
    await page.click('a.conversation-link:has-text("Alpha about sourdough")');
    await page.click('#open-graph');
    await page.waitForSelector('#graph-canvas canvas');
    await page.waitForFunction(() => {
      const cy = (window as unknown as { chatgraphGraph?: { nodes(): { length: number } } })
        .chatgraphGraph;
      return (cy?.nodes().length ?? 0) > 0;
    });
    const position = await page.evaluate(() => {
      const cy = (
        window as unknown as {
          chatgraphGraph: {
            nodes(selector: string): { first(): { renderedPosition(): { x: number; y: number } } };
          };
        }
      ).chatgraphGraph;
      return cy.nodes('[label = "Message"]').first().renderedPosition();
    });
    const box = await page.locator('#graph-canvas').boundingBox();
    await page.mouse.click((box?.x ?? 0) + position.x, (box?.y ?? 0) + position.y);
    await page.locator('#graph-details h2', { hasText: /^Message$/ }).waitFor();
    await shot('graph');
  });

  it('runs a seed query in the Cypher console, and refuses a write', async () => {
    await page.goto(`${base}/#/cypher`);
    await page.selectOption('#cypher-examples', { label: 'Cross-platform count' });
    await page.click('#cypher-run');
    await page.waitForSelector('#cypher-results table');
    const sources = await page.locator('#cypher-results td:first-child').allTextContents();
    expect(sources).toEqual(expect.arrayContaining(['chatgpt', 'claude-ai', 'claude-code']));
    await shot('cypher');
    await page.fill('#cypher-query', 'MATCH (n:Message) DETACH DELETE n');
    await page.click('#cypher-run');
    await page.locator('#cypher-results .error', { hasText: /writes are refused/ }).waitFor();
  });

  it('shows the overview', async () => {
    await page.goto(`${base}/#/overview`);
    await page.waitForSelector('#timeline canvas');
    expect(
      Number((await page.textContent('#total-conversations'))?.replace(/,/g, '')),
    ).toBeGreaterThan(5);
    await shot('overview');
  });

  it('says how to make the map of topics when nothing is embedded', async () => {
    await page.goto(`${base}/#/topics`);
    await page.locator('#topics-empty code', { hasText: 'chatgraph embed' }).waitFor();
  });

  it('imports a file by upload and shows the report', async () => {
    await page.goto(`${base}/#/import`);
    await page.setInputFiles('#import-file', fixturesOf('deepseek')[0] ?? '');
    await page.waitForSelector('#import-report', { timeout: 30_000 });
    await page
      .locator('#import-report .done', {
        hasText: /Imported conversations\.json: \d+ conversations/,
      })
      .waitFor();
    await shot('import');
    await page.click('a:has-text("See the conversations")');
    await page.selectOption('#list-filters select[name=source]', 'deepseek');
    await page.click('#list-filters button[type=submit]');
    await page.locator('.conversation-row').first().waitFor();
  });

  it('renders hostile chat text as text: nothing in it runs', async () => {
    // The sanitiser alone must stop it: this page ignores the Content-Security-Policy (which
    // would block inline handlers too, and reports the ones DOMPurify's parser meets).
    await page.close();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 }, bypassCSP: true });
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('dialog', (dialog) => {
      errors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(`${base}/#/?title=hostile`);
    await page.click('a.conversation-link');
    await page.waitForSelector('article.message.role-assistant .markdown');
    // Whatever the text could run has had its chance: every image loaded or failed (an onerror
    // runs in the task that marks it complete), every frame loaded.
    await page.waitForFunction(
      () =>
        [...document.images].every((image) => image.complete) &&
        [...document.querySelectorAll('iframe')].every(
          (frame) =>
            frame.contentDocument === null || frame.contentDocument.readyState === 'complete',
        ),
    );
    const state = await page.evaluate(() => {
      const markdown = document.querySelector('article.message.role-assistant .markdown');
      return {
        xss: (window as unknown as { __xss?: string }).__xss ?? null,
        scripts: markdown?.querySelectorAll('script').length ?? -1,
        handlers: [...(markdown?.querySelectorAll('*') ?? [])].filter((e) =>
          [...e.attributes].some((a) => a.name.startsWith('on')),
        ).length,
        iframes: markdown?.querySelectorAll('iframe').length ?? -1,
        links: [...(markdown?.querySelectorAll('a') ?? [])].map((a) => a.getAttribute('href')),
        title: document.querySelector('h1')?.textContent ?? '',
        user: document.querySelector('article.message.role-user .body')?.textContent ?? '',
        code: markdown?.querySelector('pre code')?.textContent ?? '',
      };
    });
    expect(state).toMatchObject({ xss: null, scripts: 0, handlers: 0, iframes: 0 });
    expect(state.links.every((href) => href === null || !href.startsWith('javascript:'))).toBe(
      true,
    );
    expect(state.title).toContain('<img src=x onerror=');
    expect(state.user).toContain('<script>window.__xss="user"</script>');
    expect(state.code).toContain('console.log("<b>code</b>")');
    await shot('hostile-text');
  });

  it('folds pasted text under its name, as text', async () => {
    await page.goto(`${base}/#/?title=pasted`);
    await page.click('a.conversation-link:has-text("Pasted notes")');
    const blocks = page.locator('article.message.role-user details.attachment-text');
    await blocks.first().waitFor();
    expect(await blocks.locator('summary').allTextContents()).toEqual([
      expect.stringMatching(/^Attachment: notes\.txt \(document, text\/plain, /) as unknown,
      expect.stringMatching(/^Attachment: pasted text \(document, text\/plain, /) as unknown,
    ]);
    // Folded until opened; then the text is there as it was pasted.
    expect(await blocks.first().locator('pre').isVisible()).toBe(false);
    await blocks.first().locator('summary').click();
    await blocks.first().locator('pre', { hasText: 'The quokka budget is approved.' }).waitFor();
    await blocks.nth(1).locator('summary').click();
    const state = await blocks.nth(1).evaluate((block) => ({
      text: block.querySelector('pre')?.textContent ?? '',
      images: block.querySelectorAll('img').length,
      xss: (window as unknown as { __xss?: unknown }).__xss ?? null,
    }));
    expect(state).toEqual({ text: PASTED_UNNAMED, images: 0, xss: null });
    // Attachments without text stay a list of files.
    expect(
      await page.locator('article.message.role-user ul.attachments li').allTextContents(),
    ).toEqual([
      expect.stringContaining('scan.pdf') as unknown,
      expect.stringContaining('photo.png') as unknown,
    ]);
    await shot('pasted-text');
  });

  it('deletes a conversation from its view after asking', async () => {
    // This test answers the confirm itself (the others count any dialog as an error).
    page.removeAllListeners('dialog');
    const asked: string[] = [];
    let answer = false;
    let told = (): void => undefined;
    const firstAsk = new Promise<void>((resolve) => {
      told = resolve;
    });
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
      told();
    });
    const doomed = (): Promise<number> =>
      page.evaluate(async () => {
        const response = await fetch('/api/conversations?title=doomed');
        return ((await response.json()) as { total: number }).total;
      });
    await page.goto(`${base}/#/?title=doomed`);
    await page.click('a.conversation-link:has-text("Doomed to deletion")');
    await page.waitForSelector('#delete-conversation');
    await shot('delete-button');
    await page.click('#delete-conversation');
    await firstAsk;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Doomed to deletion');
    expect(await doomed()).toBe(1);
    answer = true;
    await page.click('#delete-conversation');
    await page.waitForFunction(() => location.hash === '#/');
    expect(asked).toHaveLength(2);
    expect(await doomed()).toBe(0);
  });
});

// The samples' Japan trip: a fork, a web search and its cited sources.
const TRIP = 'a6dac0c6-061d-4b9b-821b-44cd531b4107';

// Every page, as a person on a laptop or a phone sees it, in both palettes, on the samples;
// then the fixtures' list (long titles), code cell and overview (four sources once DeepSeek's
// file is uploaded), which the samples lack.
const PAGES: [string, string, 'samples' | 'fixtures'][] = [
  ['list', '/', 'samples'],
  ['conversation', `/c/${TRIP}`, 'samples'],
  ['search', '/search?q=japan', 'samples'],
  ['memories', '/memories', 'samples'],
  ['overview', '/overview', 'samples'],
  ['topics', '/topics', 'samples'],
  ['cypher', '/cypher', 'samples'],
  ['import', '/import', 'samples'],
  ['graph', `/graph/${TRIP}`, 'samples'],
  ['fixtures-list', '/', 'fixtures'],
  ['fixtures-cell', '/c/cell-1', 'fixtures'],
  ['fixtures-overview', '/overview', 'fixtures'],
];

describe('every page at every size, checked by axe-core', () => {
  for (const scheme of ['light', 'dark'] as const)
    for (const width of [1280, 390, 360, 320])
      it(`fits a ${String(width)} px viewport in ${scheme}`, async () => {
        // axe-core injects itself through a context of the test's own.
        const context = await browser.newContext({
          viewport: { width, height: 860 },
          colorScheme: scheme,
        });
        const tab = await context.newPage();
        tab.on('pageerror', (error) => errors.push(String(error)));
        const wider: string[] = [];
        const failures: string[] = [];
        for (const [name, route, data] of PAGES) {
          await tab.goto(`${data === 'samples' ? samples.base : base}/#${route}`);
          await tab.waitForFunction(() => {
            const view = document.getElementById('view');
            return (
              view !== null && view.dataset.loading === undefined && view.childElementCount > 0
            );
          });
          // The dark palette is the page's, not only the browser's.
          const background = await tab.evaluate(
            () => getComputedStyle(document.body).backgroundColor,
          );
          const rgb = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(background)?.slice(1).map(Number);
          const light = (rgb ?? []).reduce((a, b) => a + b, 0);
          expect(rgb === undefined ? background : light > 600).toBe(scheme === 'light');
          const [scrollWidth, innerWidth] = await tab.evaluate(() => [
            document.documentElement.scrollWidth,
            window.innerWidth,
          ]);
          if (scrollWidth > innerWidth) wider.push(`${name}: ${String(scrollWidth)} px`);
          await tab.screenshot({ path: join(SHOTS, `${name}-${String(width)}-${scheme}.png`) });
          const { violations } = await new AxeBuilder({ page: tab }).analyze();
          for (const v of violations)
            if (v.impact === 'serious' || v.impact === 'critical')
              failures.push(
                `${name}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
              );
        }
        await context.close();
        expect(wider).toEqual([]);
        expect(failures).toEqual([]);
      });
});

describe('reading a conversation', () => {
  it('draws a code-interpreter cell as code, once, with its language and a copy button', async () => {
    await page.goto(`${base}/#/c/cell-1`);
    await page.waitForSelector('article.message');
    const cell = page.locator('article.message', { hasText: 'sum the squares' });
    expect(await cell.count()).toBe(1);
    // The comments stay comments: no heading, the lines kept, no second copy under the call.
    expect(await cell.locator('h1, h2, h3').count()).toBe(0);
    expect(await cell.locator('pre').count()).toBe(1);
    expect(await cell.locator('pre').textContent()).toBe(CELL);
    expect(await cell.locator('.code-language').textContent()).toBe('python');
    expect(await cell.locator('.hljs-comment').count()).toBe(2);
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown.split('then print them').length - 1).toBe(1);
    expect(await page.locator('details.tool-call').count()).toBe(0);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await cell.locator('.copy-code').click();
    await cell.locator('.copy-code', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CELL);
  });

  it('links each [n] of an answer to its numbered source under it, on the same page', async () => {
    await page.goto(`${base}/#/?title=bistro`);
    await page.click('a.conversation-link:has-text("Bistro lunch near Saint-Germain")');
    const answer = page.locator('article.message', { hasText: 'first come, first served' });
    await answer.waitFor();
    const links = answer.locator('.markdown sup.cite a');
    expect(await links.allTextContents()).toEqual(['[1]', '[2]', '[3]', '[4]']);
    // The list stays: five sources, the fifth one cited by no number in the text.
    const sources = answer.locator('ol.citations > li');
    expect(await sources.count()).toBe(5);
    for (let i = 0; i < 4; i++)
      expect(await links.nth(i).getAttribute('href')).toBe(
        `#${(await sources.nth(i).getAttribute('id')) ?? 'no id'}`,
      );
    const route = await page.evaluate(() => location.hash);
    await links.nth(2).click();
    await page.waitForFunction(() => document.activeElement?.closest('ol.citations') !== null);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(
      'What lunch costs in Paris, 2026',
    );
    // The route is the hash: following the link leaves it, and the conversation, as they were.
    expect(await page.evaluate(() => location.hash)).toBe(route);
    expect(await answer.count()).toBe(1);
    await shot('citations');
  });

  it('opens a ChatGPT conversation at its first prompt, with no empty System card above it', async () => {
    // The samples' "Car Won’t Start in the Cold": ChatGPT's hidden, empty system message first.
    await page.goto(`${samples.base}/#/c/56d81554-ad3d-4cf5-8cd5-949d638acbae`);
    await page.waitForSelector('article.message');
    const roles = await page
      .locator('article.message')
      .evaluateAll((all: Element[]) =>
        all.map((a) => [...a.classList].find((c) => c.startsWith('role-'))),
      );
    expect(roles).toEqual(['role-user', 'role-assistant']);
    // A hidden message with something in it (custom instructions) stays, folded as context.
    await page.goto(`${samples.base}/#/c/2dc0c28a-2afc-47ec-8041-bbfc85ba15c8`);
    const context = page.locator('article.message details.hidden-context');
    await context.waitFor();
    expect(await context.locator('summary').textContent()).toBe('Hidden context');
    await shot('conversation-first-prompt');
  });

  it("shows a tool call's input in its language", async () => {
    await page.goto(`${base}/#/?title=watering`);
    await page.click('a.conversation-link:has-text("Watering schedule script")');
    const call = page.locator('details.tool-call', { hasText: 'Tool call: Bash' }).first();
    await call.locator('summary').click();
    // Claude Code's Bash takes JSON ({"command": …}): highlighted as JSON, not as shell.
    expect(await call.locator('.code-language').first().textContent()).toBe('json');
    expect(await call.locator('pre').first().textContent()).toContain('"command"');
    expect(await call.locator('pre .hljs-attr').count()).toBeGreaterThan(0);
    await shot('tool-call');
  });

  it('remembers the colour scheme the toggle chose', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${base}/`);
    await page.waitForSelector('#theme-toggle');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    await page.click('#theme-toggle');
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).not.toBe('rgb(255, 255, 255)');
    await page.reload();
    await page.waitForSelector('#theme-toggle');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.click('#theme-toggle');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });
});

describe('the keyboard', () => {
  it('/ goes to the search box, j and k move between hits and messages, Enter opens, Esc goes back', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('a.conversation-link');
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.id === 'search-input');
    await page.keyboard.type('first answer');
    await page.locator('a.hit').first().waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('hit'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('article.message.focus');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const second = await page.evaluate(() => {
      const messages = [...document.querySelectorAll('article.message')];
      return messages.indexOf(document.activeElement as Element);
    });
    expect(second).toBe(1);
    await page.keyboard.press('k');
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll('article.message')].indexOf(
          document.activeElement as Element,
        ),
      ),
    ).toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => location.hash.startsWith('#/search'));
  });
});
