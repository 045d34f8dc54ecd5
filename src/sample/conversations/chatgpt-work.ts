import type { ChatgptSample } from './sample-chat.js';

/** ChatGPT conversations about code, spreadsheets and writing. */
export const chatgptWork: ChatgptSample[] = [
  {
    slug: 'xlookup',
    title: 'XLOOKUP Across Two Sheets',
    start: '2025-02-20T11:05:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'Excel: sheet "Orders" has a customer ID in column B. Sheet "Customers" has ID in A and email in D. I want the email next to each order. VLOOKUP keeps giving #N/A',
        reply: `Use **XLOOKUP** – it does not care which column the ID is in. In Orders, cell C2:

\`\`\`
=XLOOKUP(B2, Customers!A:A, Customers!D:D, "not found")
\`\`\`

Then fill down.

If you still get "not found" for IDs you can see, the two columns probably differ in type: one holds numbers, the other text that looks like numbers (often after an import). Check with \`=ISTEXT(B2)\` on both sides. To fix it, wrap the lookup value: \`XLOOKUP(TEXT(B2,"0"), ...)\` or convert the column with Data → Text to Columns → Finish.`,
      },
    ],
  },
  {
    slug: 'postcode-regex',
    title: 'UK Postcode Regex',
    start: '2025-03-06T15:40:00Z',
    model: 'o3-mini',
    turns: [
      {
        user: 'regex to validate UK postcodes in a form, javascript. doesnt need to be perfect',
        reply: `A practical one that accepts the normal formats, with or without the space, in any case:

\`\`\`js
const POSTCODE = /^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$/i;

POSTCODE.test('BS1 4DJ');  // true
POSTCODE.test('sw1a1aa');  // true
POSTCODE.test('12345');    // false
\`\`\`

It checks the shape (outward code, optional space, inward code), not whether the postcode exists. Normalise before saving: \`value.toUpperCase().replace(/\\s+/g, '').replace(/(.{3})$/, ' $1')\`.`,
      },
    ],
  },
  {
    slug: 'exif-rename',
    title: 'Rename Photos by Date Taken',
    start: '2025-04-19T13:10:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'python script to rename all my photos in a folder by date',
        before: {
          user: 'python script to rename files in a folder',
          reply: `Here is a simple script that adds a prefix to every file in a folder:

\`\`\`python
from pathlib import Path

for i, path in enumerate(sorted(Path('.').iterdir()), 1):
    if path.is_file():
        path.rename(path.with_name(f'{i:04d}_{path.name}'))
\`\`\``,
        },
        reply: `This renames every JPEG by the date it was **taken** (from the EXIF data), e.g. \`2025-04-12_14-03-55.jpg\`, and falls back to the file's modification time when there is no EXIF. It needs Pillow (\`pip install pillow\`).

\`\`\`python
from datetime import datetime
from pathlib import Path
from PIL import Image

DATE_TAKEN = 36867  # EXIF DateTimeOriginal

def taken(path: Path) -> datetime:
    with Image.open(path) as image:
        raw = image.getexif().get_ifd(0x8769).get(DATE_TAKEN)
    if raw:
        return datetime.strptime(raw, '%Y:%m:%d %H:%M:%S')
    return datetime.fromtimestamp(path.stat().st_mtime)

folder = Path('~/Pictures/holiday').expanduser()
for path in sorted(folder.glob('*.jp*g')):
    stem = taken(path).strftime('%Y-%m-%d_%H-%M-%S')
    target = path.with_name(f'{stem}{path.suffix.lower()}')
    n = 1
    while target.exists() and target != path:
        target = path.with_name(f'{stem}_{n}{path.suffix.lower()}')
        n += 1
    path.rename(target)
    print(f'{path.name} -> {target.name}')
\`\`\`

Run it on a copy of the folder first – renames cannot be undone.`,
      },
      {
        user: 'works! can it do HEIC from my iphone too',
        reply: `Yes, with the \`pillow-heif\` plugin:

\`\`\`bash
pip install pillow-heif
\`\`\`

Then register it at the top of the script and widen the glob:

\`\`\`python
from pillow_heif import register_heif_opener
register_heif_opener()

for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in {'.jpg', '.jpeg', '.heic'}):
\`\`\`

The rest stays the same – iPhone photos keep their date taken in the same EXIF field.`,
      },
    ],
  },
  {
    slug: 'cover-letter',
    title: 'Cover Letter for Backend Role',
    start: '2025-06-05T20:30:00Z',
    model: 'gpt-4o',
    turns: [
      {
        user: 'Can you tighten this opening paragraph of my cover letter? "I am writing to apply for the position of Backend Engineer at your company. I have been working as a developer for six years and I think I would be a good fit for the role because I have a lot of experience with Python and databases."',
        before: {
          reply: `"I am excited to apply for the Backend Engineer position. With six years of experience as a developer, I am confident that my strong background in Python and databases makes me an excellent fit for your team."`,
        },
        reply: `Here is a tighter version that leads with what you have done rather than what you think:

"For six years I have built and run Python services backed by PostgreSQL, most recently an order system handling 2 million requests a day. I would like to bring that experience to your backend team."

Swap in a real number or project from your own work – one concrete detail does more than any adjective. And name the company in the second sentence so it does not read like a template.`,
      },
    ],
  },
  {
    slug: 'slow-query',
    title: 'Slow Postgres Query Fix',
    start: '2025-08-27T10:18:00Z',
    model: 'gpt-5-thinking',
    turns: [
      {
        user: `This query takes 4 seconds on a 3M row table. Why?

SELECT * FROM orders WHERE customer_id = 4812 AND status = 'shipped' ORDER BY created_at DESC LIMIT 20;

There is an index on customer_id.`,
        reply: {
          steps: [
            {
              thinking:
                'Index on customer_id alone: Postgres finds all rows for the customer, filters status, then sorts by created_at before the limit. If the customer has many rows, or the planner prefers scanning the created_at order, it is slow. A composite index (customer_id, status, created_at desc) lets it read the first 20 rows directly. Suggest EXPLAIN ANALYZE to confirm.',
              seconds: 21,
            },
          ],
          text: `With only an index on \`customer_id\`, Postgres has to fetch **every** order of that customer, filter out the non-shipped ones, then **sort** them all by date before it can return 20. For a big customer that is a lot of rows read and sorted.

A composite index matching the filter and the sort lets it read the 20 rows straight off the index:

\`\`\`sql
CREATE INDEX CONCURRENTLY orders_customer_status_created
    ON orders (customer_id, status, created_at DESC);
\`\`\`

Then confirm with:

\`\`\`sql
EXPLAIN (ANALYZE, BUFFERS)
SELECT * FROM orders WHERE customer_id = 4812 AND status = 'shipped'
ORDER BY created_at DESC LIMIT 20;
\`\`\`

You want to see an *Index Scan* on the new index and no *Sort* node. Once it works you can probably drop the old single-column index, since the new one covers lookups by \`customer_id\` too.`,
        },
      },
      {
        user: 'went from 4s to 3ms. thank you!!',
        reply:
          'Great result! That is the typical gain when the index matches both the filter and the sort. `pg_stat_statements` will show you the next slowest queries if you want to keep going.',
      },
    ],
  },
  {
    slug: 'compose-port',
    title: 'Docker Compose Port Already in Use',
    start: '2026-03-03T09:47:00Z',
    model: 'gpt-5-2',
    turns: [
      {
        user: 'docker compose up fails: "Bind for 0.0.0.0:5432 failed: port is already allocated". I dont have postgres running... I think',
        reply: `Something is holding port 5432. Find out what:

\`\`\`bash
sudo lsof -i :5432        # or: sudo ss -ltnp | grep 5432
docker ps --filter publish=5432
\`\`\`

Usual suspects:
- a **Postgres installed on the host** that starts at boot (\`sudo systemctl stop postgresql\`, and \`disable\` it if you do not need it),
- a **container from another project** still running – \`docker ps\` shows it.

Or sidestep it by mapping a different host port in \`compose.yaml\`:

\`\`\`yaml
services:
  db:
    image: postgres:17
    ports:
      - "5433:5432"
\`\`\`

Your app inside the compose network still uses \`db:5432\`; only tools on your machine connect to \`localhost:5433\`.`,
      },
    ],
  },
  {
    slug: 'dad-70th',
    title: 'Speech for Dad’s 70th',
    start: '2026-02-14T21:00:00Z',
    model: 'gpt-5-2',
    turns: [
      {
        user: 'I need a short speech (2 minutes) for my dad’s 70th birthday. He was a maths teacher for 35 years, loves fishing and terrible puns, and fixed every bike in our street. Funny but warm, not cheesy.',
        reply: `Here is a draft of about two minutes – change the details to make it yours:

"Good evening everyone. For those who don't know me, I'm the one Dad taught to ride a bike, to do long division, and to never, ever trust a fish that says it's the one that got away.

Dad spent thirty-five years teaching maths, which means there are roughly four thousand people out there who can solve for x because of him – and at least one who still can't, and she's giving this speech.

He also ran the unofficial bike repair shop of our street. If you grew up near us, your chain was probably put back on by Dad, with a lecture on gear ratios thrown in for free.

He'd want me to keep this short, because, as he likes to say, a speech is like a fishing line: the longer it is, the more likely it gets tangled.

So: Dad, thank you for the patience, the puns and the punctures fixed. Seventy looks good on you. Please raise your glasses – to Dad!"`,
      },
      {
        user: 'love it. can you add one pun about him turning 70?',
        reply: `Try this just before the toast:

"People keep asking how it feels to hit seventy. Dad says it's fine – he's just rounding up."

Short, in character for a maths teacher, and it lands right before the glasses go up.`,
      },
    ],
  },
];
