import type { SampleConversation } from './sample-chat.js';

/** Claude.ai conversations about code and the home network. */
export const claudeTech: SampleConversation[] = [
  {
    slug: 'use-effect-loop',
    title: 'useEffect infinite loop',
    start: '2025-02-11T14:20:00Z',
    model: 'claude-3-5-sonnet-20241022',
    turns: [
      {
        user: `Why does this component keep re-rendering forever and hammering my API?

\`\`\`tsx
function Profile({ userId }) {
  const [user, setUser] = useState(null);
  const options = { headers: { Accept: 'application/json' } };
  useEffect(() => {
    fetch(\`/api/users/\${userId}\`, options).then(r => r.json()).then(setUser);
  }, [userId, options]);
  return <p>{user?.name}</p>;
}
\`\`\``,
        reply: `The culprit is \`options\` in the dependency array. It is a new object on every render, so React sees a changed dependency each time:

render → effect runs → \`setUser\` → render → new \`options\` → effect runs again → …

Move the constant out of the component (or into the effect), so the only dependency is \`userId\`:

\`\`\`tsx
const OPTIONS = { headers: { Accept: 'application/json' } };

function Profile({ userId }: { userId: string }) {
  const [user, setUser] = useState<User | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch(\`/api/users/\${userId}\`, { ...OPTIONS, signal: controller.signal })
      .then((r) => r.json())
      .then(setUser)
      .catch(() => {});
    return () => controller.abort();
  }, [userId]);
  return <p>{user?.name}</p>;
}
\`\`\`

The \`AbortController\` also cancels a request that is still running when \`userId\` changes, so a slow old response cannot overwrite a newer one. If the options really must depend on props, wrap them in \`useMemo\`.`,
      },
    ],
  },
  {
    slug: 'pi-hole',
    title: 'Pi-hole on a Raspberry Pi',
    start: '2025-03-29T10:02:00Z',
    model: 'claude-3-7-sonnet-20250219',
    turns: [
      {
        user: 'I have an old Raspberry Pi 3 in a drawer. Can I use it to block ads for the whole house? Our router is a basic ISP one.',
        reply: `Yes – that is exactly what **Pi-hole** does, and a Pi 3 is plenty. It acts as the DNS server for your network and answers "nothing here" for known ad and tracker domains.

Rough steps:
1. Flash **Raspberry Pi OS Lite** with Raspberry Pi Imager (set a hostname, SSH and your Wi-Fi, or better, plug it in with Ethernet).
2. Give the Pi a **fixed IP**, e.g. a DHCP reservation in the router for 192.168.1.2.
3. Install Pi-hole:
   \`\`\`bash
   curl -sSL https://install.pi-hole.net | bash
   \`\`\`
4. Point your devices at it: set the router's **DNS server** to the Pi's address.

Many ISP routers do not let you change the DNS server. If yours doesn't, turn off the router's DHCP and let Pi-hole be the DHCP server instead (it is one switch in its settings).`,
      },
      {
        user: 'Router wont let me change DNS, as you guessed. If I turn on DHCP in pihole and the pi dies, does the internet stop working?',
        reply: `Sort of: devices that already have an address keep working until their lease runs out (usually 24 hours), but they lose DNS straight away, so web pages stop loading even though the connection is there.

To make that less scary:
- Keep a note of how to **turn the router's DHCP back on** – it takes a minute and everything recovers.
- Use a decent **power supply and SD card** – most Pi failures are one or the other.
- Set a **second DNS server** in Pi-hole's DHCP settings only if you accept that some ads will get through (devices use either server).

Running it on a Pi for years is common; just keep that fallback written down somewhere that is not on the network.`,
      },
    ],
  },
  {
    slug: 'ts-generic',
    title: 'TypeScript generic constraint error',
    start: '2025-12-04T16:45:00Z',
    model: 'claude-opus-4-5-20251101',
    turns: [
      {
        user: `TS error I don't get:

\`\`\`ts
function pluck<T, K>(items: T[], key: K): T[K][] {
  return items.map((item) => item[key]);
}
\`\`\`

"Type 'K' cannot be used to index type 'T'."`,
        before: {
          reply: `TypeScript doesn't know K is a key of T. Add a constraint: \`K extends keyof T\`.`,
        },
        reply: `TypeScript only lets you write \`T[K]\` when it can prove that \`K\` is one of \`T\`'s keys. With \`K\` unconstrained, someone could call \`pluck(users, 42)\` or \`pluck(users, 'nope')\`.

Constrain it:

\`\`\`ts
function pluck<T, K extends keyof T>(items: T[], key: K): T[K][] {
  return items.map((item) => item[key]);
}

const users = [{ id: 1, name: 'Ana' }, { id: 2, name: 'Ben' }];
const names = pluck(users, 'name'); // string[]
pluck(users, 'email');              // error: not a key of the user type
\`\`\`

A nice bonus: the return type follows the key, so \`pluck(users, 'id')\` is \`number[]\` without any annotation.`,
      },
    ],
  },
  {
    slug: 'rsync-backup',
    title: 'Photo backup script with rsync',
    start: '2026-02-07T11:30:00Z',
    model: 'claude-opus-4-6',
    turns: [
      {
        user: 'bash script that copies ~/Pictures to my external drive mounted at /media/backup, only new or changed files, and keeps deleted photos on the drive in a separate folder rather than deleting them',
        before: {
          user: 'bash script to back up my photos to an external drive',
          reply: `Here is a minimal version:

\`\`\`bash
#!/usr/bin/env bash
cp -r ~/Pictures /media/backup/
\`\`\`

It copies everything every time, though. Do you want only new files copied, and what should happen to photos you delete?`,
        },
        reply: `rsync does all of that with \`--backup\` and \`--backup-dir\`:

\`\`\`bash
#!/usr/bin/env bash
set -euo pipefail

SOURCE="$HOME/Pictures/"
TARGET="/media/backup/Pictures/"
REMOVED="/media/backup/removed/$(date +%Y-%m-%d)"

if ! mountpoint -q /media/backup; then
  echo "backup drive is not mounted" >&2
  exit 1
fi

rsync -a --delete --backup --backup-dir="$REMOVED" \\
  --exclude '.thumbnails' \\
  "$SOURCE" "$TARGET"

echo "backup done: $(date)"
\`\`\`

How it behaves:
- \`-a\` copies only new or changed files and keeps dates and permissions.
- \`--delete\` removes from the mirror what you deleted, but \`--backup-dir\` **moves** those files into \`removed/<date>\` instead of deleting them.
- The \`mountpoint\` check stops it from filling your main disk if the drive is unplugged.

Try it first with \`--dry-run\` added to see what it would do.`,
      },
      {
        user: 'how do I run it every sunday night automatically?',
        reply: `With cron. Save the script as \`~/bin/photo-backup.sh\`, make it executable (\`chmod +x\`), then run \`crontab -e\` and add:

\`\`\`
0 22 * * 0 $HOME/bin/photo-backup.sh >> $HOME/photo-backup.log 2>&1
\`\`\`

That is 22:00 every Sunday, with the output appended to a log file so you can check that it ran. The drive has to be plugged in and mounted at that time; otherwise the log says "backup drive is not mounted" and nothing happens.`,
      },
    ],
  },
];
