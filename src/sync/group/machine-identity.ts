import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { z } from 'zod';
import { writeFileAtomic } from '../../bundle/atomic-write.js';
import { createSigningKey, readSigningKey, type SigningKey } from '../../trust/signing-key.js';

/**
 * A machine is its config folder: `$XDG_CONFIG_HOME/chatgraph` (an absolute XDG_CONFIG_HOME
 * only, as the XDG specification says), else `~/.config/chatgraph`.
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'chatgraph');
  return join(env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir(), '.config', 'chatgraph');
}

/** Where this machine's sync keys live, inside its config folder (0700). */
export function syncKeysDir(config: string): string {
  return join(config, 'sync');
}

const machineFileSchema = z.object({
  machine_id: z.string().uuid(),
  name: z.string().min(1),
  created_at: z.string(),
});

/** A group this machine is a member of, as it pinned it when it founded or joined it. */
export const groupPinSchema = z.object({
  group_id: z.string().uuid(),
  /** The founder's Ed25519 key (`z6Mk…`): the root every roster is verified from. */
  founder_key: z.string(),
  /** The group's shared age identity (`AGE-SECRET-KEY-1…`), which opens every file of DIR. */
  group_identity: z.string().startsWith('AGE-SECRET-KEY-1'),
  joined_at: z.string(),
});
export type GroupPin = z.infer<typeof groupPinSchema>;

/** This machine's keys: never printed, never written anywhere but its config folder. */
export interface MachineIdentity {
  readonly config: string;
  readonly id: string;
  readonly name: string;
  /** `AGE-SECRET-KEY-1…` */
  readonly ageIdentity: string;
  /** `age1…` */
  readonly recipient: string;
  readonly signing: SigningKey;
  readonly groups: readonly GroupPin[];
}

const files = (config: string) => {
  const dir = syncKeysDir(config);
  return {
    dir,
    machine: join(dir, 'machine.json'),
    ageIdentity: join(dir, 'age-identity.txt'),
    signingKey: join(dir, 'signing-key.pem'),
    groups: join(dir, 'groups'),
  };
};

const PRIVATE = { mode: 0o600 } as const;

async function privateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode applies to a folder it makes; one made by hand is tightened too.
  await chmod(dir, 0o700);
}

/** The machine's first age identity line in the identity file (its own; group keys follow). */
function ownIdentityOf(text: string, file: string): string {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.startsWith('AGE-SECRET-KEY-1'));
  if (!line) throw new Error(`${file} holds no age identity`);
  return line;
}

/**
 * The identity file as age-keygen writes one, this machine's key first, then each group's
 * shared key: `age -d -i age-identity.txt FILE` opens any file of the groups' folders.
 */
function identityFileText(own: string, ownRecipient: string, groups: readonly GroupPin[]): string {
  const lines = [
    "# chatgraph sync: this machine's age identity, then each sync group's shared identity.",
    `# created: ${new Date().toISOString()}`,
    `# public key: ${ownRecipient}`,
    own,
  ];
  for (const group of groups) lines.push(`# group ${group.group_id}`, group.group_identity);
  return `${lines.join('\n')}\n`;
}

async function readGroups(dir: string): Promise<GroupPin[]> {
  if (!existsSync(dir)) return [];
  const pins: GroupPin[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (!name.endsWith('.json')) continue;
    const parsed = groupPinSchema.safeParse(JSON.parse(await readFile(join(dir, name), 'utf8')));
    if (parsed.success) pins.push(parsed.data);
  }
  return pins;
}

/**
 * This machine's identity, made on first use without a question: a machine id (UUID), a name
 * (the host's), an age X25519 identity and an Ed25519 signing key, each file 0600 in a 0700
 * folder, written atomically.
 */
export async function machineIdentity(
  config: string,
  options: { name?: string; now?: () => Date } = {},
): Promise<MachineIdentity> {
  const f = files(config);
  await privateFolder(f.dir);
  let machine: z.infer<typeof machineFileSchema>;
  if (existsSync(f.machine)) {
    const parsed = machineFileSchema.safeParse(JSON.parse(await readFile(f.machine, 'utf8')));
    if (!parsed.success) throw new Error(`${f.machine}: not a chatgraph machine file`);
    machine = parsed.data;
  } else {
    machine = {
      machine_id: randomUUID(),
      name: options.name ?? (hostname() || 'machine'),
      created_at: (options.now?.() ?? new Date()).toISOString(),
    };
    await writeFileAtomic(f.machine, `${JSON.stringify(machine, null, 2)}\n`, PRIVATE);
  }
  const signing = existsSync(f.signingKey)
    ? await readSigningKey(f.signingKey)
    : await createSigningKey(f.signingKey);
  let ageIdentity: string;
  const groups = await readGroups(f.groups);
  if (existsSync(f.ageIdentity)) {
    ageIdentity = ownIdentityOf(await readFile(f.ageIdentity, 'utf8'), f.ageIdentity);
  } else {
    ageIdentity = await generateX25519Identity();
    await writeFileAtomic(
      f.ageIdentity,
      identityFileText(ageIdentity, await identityToRecipient(ageIdentity), groups),
      PRIVATE,
    );
  }
  return {
    config,
    id: machine.machine_id,
    name: machine.name,
    ageIdentity,
    recipient: await identityToRecipient(ageIdentity),
    signing,
    groups,
  };
}

/** Pins a group this machine founded or joined, and adds its key to the identity file. */
export async function pinGroup(identity: MachineIdentity, pin: GroupPin): Promise<MachineIdentity> {
  const f = files(identity.config);
  await privateFolder(f.groups);
  await writeFileAtomic(
    join(f.groups, `${pin.group_id}.json`),
    `${JSON.stringify(pin, null, 2)}\n`,
    PRIVATE,
  );
  const groups = await readGroups(f.groups);
  await writeFileAtomic(
    f.ageIdentity,
    identityFileText(identity.ageIdentity, identity.recipient, groups),
    PRIVATE,
  );
  return { ...identity, groups };
}
