import type { ClaudeCodeSample } from './sample-chat.js';

/** Claude Code sessions in the user's own projects. */
export const claudeCodeSessions: ClaudeCodeSample[] = [
  {
    slug: 'budget-csv-import',
    title: 'Add CSV import to budget app',
    start: '2025-07-20T14:02:00Z',
    model: 'claude-sonnet-4-20250514',
    version: '1.0.56',
    cwd: '/home/sam/code/budget-app',
    branch: 'csv-import',
    turns: [
      {
        user: 'add a command that imports a bank CSV (date,description,amount) into the transactions table. skip rows that are already there',
        reply: {
          steps: [
            {
              tool: 'Read',
              input: { file_path: '/home/sam/code/budget-app/src/db.py' },
              output: `import sqlite3

def connect(path="budget.db"):
    db = sqlite3.connect(path)
    db.execute("""CREATE TABLE IF NOT EXISTS transactions (
        id INTEGER PRIMARY KEY, date TEXT, description TEXT, amount REAL)""")
    return db`,
            },
            {
              tool: 'Write',
              input: {
                file_path: '/home/sam/code/budget-app/src/import_csv.py',
                content: `import csv
from .db import connect

def import_csv(path, db=None):
    db = db or connect()
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS tx_unique ON transactions(date, description, amount)")
    added = 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            cur = db.execute(
                "INSERT OR IGNORE INTO transactions(date, description, amount) VALUES (?, ?, ?)",
                (row["date"], row["description"].strip(), float(row["amount"])),
            )
            added += cur.rowcount
    db.commit()
    return added
`,
              },
              output: 'File created successfully at: /home/sam/code/budget-app/src/import_csv.py',
            },
            {
              run: 'python -m pytest -q tests/test_import_csv.py',
              output: '..\n2 passed in 0.08s',
            },
          ],
          text: `Added \`src/import_csv.py\` with \`import_csv(path)\`:
- reads the CSV with \`csv.DictReader\`,
- relies on a **unique index** on (date, description, amount) and \`INSERT OR IGNORE\`, so re-importing the same file adds nothing,
- returns how many rows were new.

Both tests pass. One caveat: two genuinely identical transactions on the same day (two coffees at the same price) would be merged. If that matters, we can include the row's position in the file in the key.`,
        },
      },
      {
        user: 'the two coffees thing happens all the time actually. fix it',
        reply: {
          steps: [
            {
              thinking:
                'Count duplicates within the file: the n-th occurrence of the same (date, description, amount) gets occurrence n. Store occurrence in a column and include it in the unique index. Re-importing the same file then yields the same keys.',
              seconds: 5,
            },
            {
              tool: 'Edit',
              input: {
                file_path: '/home/sam/code/budget-app/src/import_csv.py',
                old_string: 'ON transactions(date, description, amount)',
                new_string: 'ON transactions(date, description, amount, occurrence)',
              },
              output: 'The file /home/sam/code/budget-app/src/import_csv.py has been updated.',
            },
            {
              run: 'python -m pytest -q',
              output: '.....\n5 passed in 0.11s',
            },
          ],
          text: `Fixed. Each row now gets an \`occurrence\` number: the first coffee of the day at £3.20 is 1, the second is 2. The unique index includes it, so:
- two identical coffees in one file are both kept,
- importing the same file again still adds nothing.

I added a migration for the new column and a test with two identical rows. All 5 tests pass.`,
        },
      },
    ],
  },
  {
    slug: 'budget-timezone-test',
    title: 'Fix flaky month summary test',
    start: '2025-10-15T08:40:00Z',
    model: 'claude-sonnet-4-5-20250929',
    version: '2.0.14',
    cwd: '/home/sam/code/budget-app',
    branch: 'main',
    turns: [
      {
        user: 'test_month_summary fails on CI but passes on my laptop. CI runs in UTC, I am in London',
        reply: {
          steps: [
            {
              run: 'TZ=UTC python -m pytest -q tests/test_summary.py',
              output: `F
FAILED tests/test_summary.py::test_month_summary - assert 3 == 4
1 failed in 0.09s`,
            },
            {
              tool: 'Grep',
              input: { pattern: 'fromtimestamp|now\\(', path: 'src' },
              output: 'src/summary.py:14:    month = datetime.fromtimestamp(ts).strftime("%Y-%m")',
            },
            {
              tool: 'Edit',
              input: {
                file_path: '/home/sam/code/budget-app/src/summary.py',
                old_string: 'datetime.fromtimestamp(ts)',
                new_string: 'datetime.fromtimestamp(ts, tz=LONDON)',
              },
              output: 'The file /home/sam/code/budget-app/src/summary.py has been updated.',
            },
            {
              run: 'TZ=UTC python -m pytest -q && TZ=Europe/London python -m pytest -q',
              output: '.......\n7 passed in 0.12s\n.......\n7 passed in 0.12s',
            },
          ],
          text: `Found it: \`summary.py\` turned timestamps into months with \`datetime.fromtimestamp(ts)\`, which uses the **machine's** time zone. A transaction at 00:30 on 1 October in London is still 30 September in UTC, so on CI it landed in the wrong month.

I made the conversion explicit with \`ZoneInfo("Europe/London")\`, so the month no longer depends on where the code runs. The tests now pass with both \`TZ=UTC\` and \`TZ=Europe/London\`.`,
        },
      },
    ],
  },
  {
    slug: 'zsh-startup',
    title: 'Speed up slow zsh startup',
    start: '2026-01-12T19:15:00Z',
    model: 'claude-opus-4-5-20251101',
    version: '2.1.3',
    cwd: '/home/sam/dotfiles',
    branch: 'main',
    turns: [
      {
        user: 'opening a new terminal takes almost 2 seconds. find out why',
        reply: {
          steps: [
            {
              run: 'for i in 1 2 3; do /usr/bin/time -f %e zsh -i -c exit; done',
              output: '1.84\n1.79\n1.81',
            },
            {
              run: "zsh -i -c 'zmodload zsh/zprof; source ~/.zshrc; zprof' | head -8",
              output: `num  calls                time                       self            name
 1)    1        1402.11    88.6%     1402.11    88.6%  nvm_auto
 2)    2          96.40     6.1%       96.40     6.1%  compinit
 3)    1          31.02     2.0%       31.02     2.0%  _pyenv_init`,
            },
            {
              tool: 'Edit',
              input: {
                file_path: '/home/sam/dotfiles/zshrc',
                old_string: 'source "$NVM_DIR/nvm.sh"',
                new_string: 'nvm() { unset -f nvm; source "$NVM_DIR/nvm.sh"; nvm "$@"; }',
              },
              output: 'The file /home/sam/dotfiles/zshrc has been updated.',
            },
            {
              run: 'for i in 1 2 3; do /usr/bin/time -f %e zsh -i -c exit; done',
              output: '0.21\n0.19\n0.2',
            },
          ],
          text: `**nvm** was 89% of the startup time: loading \`nvm.sh\` takes 1.4 s on every new shell. I replaced the eager \`source\` with a small function that loads nvm the first time you actually type \`nvm\`.

Startup went from **1.8 s to 0.2 s**. One trade-off: \`node\` from nvm is not on the PATH until you run \`nvm use\` (or any nvm command) in that shell. If you want node available always, I can add your default version's bin directory to PATH directly, which costs nothing.`,
        },
      },
      {
        user: 'yes do that',
        reply: {
          steps: [
            {
              tool: 'Edit',
              input: {
                file_path: '/home/sam/dotfiles/zshrc',
                old_string: 'nvm() {',
                new_string: 'export PATH="$NVM_DIR/versions/node/v22.12.0/bin:$PATH"\nnvm() {',
              },
              output: 'The file /home/sam/dotfiles/zshrc has been updated.',
            },
          ],
          text: 'Done: your default node (v22.12.0) is on the PATH from the start, and nvm itself still loads lazily. Startup stays at about 0.2 s.',
        },
      },
    ],
  },
  {
    slug: 'recipe-search',
    title: 'Add ingredient search to recipe site',
    start: '2026-03-08T10:25:00Z',
    model: 'claude-opus-4-6',
    version: '2.1.50',
    cwd: '/home/sam/code/recipes',
    branch: 'search',
    turns: [
      {
        user: 'the recipe site needs a search box: type "lentil" and get every recipe that uses lentils in the title or ingredients. its an Astro site, recipes are markdown files in src/content/recipes',
        reply: {
          steps: [
            {
              tool: 'Glob',
              input: { pattern: 'src/content/recipes/*.md' },
              output: `src/content/recipes/dal.md
src/content/recipes/lentil-bolognese.md
src/content/recipes/mushroom-risotto.md
src/content/recipes/tagliatelle.md`,
            },
            {
              tool: 'Write',
              input: {
                file_path: '/home/sam/code/recipes/src/pages/search.json.ts',
                content: `import { getCollection } from 'astro:content';

export async function GET() {
  const recipes = await getCollection('recipes');
  const index = recipes.map((r) => ({
    slug: r.id,
    title: r.data.title,
    ingredients: r.data.ingredients.join(' '),
  }));
  return new Response(JSON.stringify(index));
}
`,
              },
              output:
                'File created successfully at: /home/sam/code/recipes/src/pages/search.json.ts',
            },
            {
              run: 'npm run build 2>&1 | tail -3',
              output: '12:41:07 [build] 9 page(s) built in 1.92s\n12:41:07 [build] Complete!',
            },
          ],
          text: `Search is in:
- \`src/pages/search.json.ts\` builds a small index (title and ingredients of every recipe) at build time – it is a static JSON file, no server needed.
- \`src/components/Search.astro\` fetches it once and filters as you type, matching "lentil" in "Lentils" and "red lentils" too (case-insensitive, and plurals by prefix).

The build passes. With 4 recipes the index is tiny; it will stay fast into the hundreds.`,
        },
      },
    ],
  },
  {
    slug: 'home-server-backup',
    title: 'Nightly backup for home server volumes',
    start: '2026-04-26T21:10:00Z',
    model: 'claude-opus-4-6',
    version: '2.1.71',
    cwd: '/home/sam/home-server',
    branch: 'main',
    turns: [
      {
        user: 'I run Immich and Paperless in docker compose here. Add a nightly backup of their volumes to the NAS at /mnt/nas/backups, keep the last 7',
        reply: {
          steps: [
            {
              thinking:
                'Databases should be dumped, not copied live. Immich uses Postgres, Paperless too. Dump both with pg_dump via docker compose exec, then tar the upload volumes, rotate to 7. Use a systemd timer rather than cron since the server already uses systemd units.',
              seconds: 8,
            },
            {
              tool: 'Read',
              input: { file_path: '/home/sam/home-server/compose.yaml' },
              output: `services:
  immich-server: ...
  immich-db:
    image: tensorchord/pgvecto-rs:pg16-v0.2.0
  paperless:
    image: ghcr.io/paperless-ngx/paperless-ngx:2.14
  paperless-db:
    image: postgres:16
volumes:
  immich-upload:
  paperless-media:`,
            },
            {
              run: 'sudo systemctl start home-backup.service && ls /mnt/nas/backups/$(date +%F)',
              output:
                'immich-db.sql.gz\nimmich-upload.tar.gz\npaperless-db.sql.gz\npaperless-media.tar.gz',
            },
          ],
          text: `Backups are set up:
- \`backup.sh\` dumps both Postgres databases with \`pg_dump\` through \`docker compose exec\` (copying a live database directory can give a corrupt backup), then tars the \`immich-upload\` and \`paperless-media\` volumes into \`/mnt/nas/backups/<date>/\`.
- It deletes dated folders beyond the newest 7.
- A **systemd timer** (\`home-backup.timer\`) runs it at 03:30 every night, with \`Persistent=true\` so a missed run happens at the next boot.

I ran it once by hand: all four files are on the NAS. Worth doing a test restore of the Paperless dump into a scratch container one day – a backup you have never restored is only a hope.`,
        },
      },
    ],
  },
];
