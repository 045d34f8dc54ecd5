import { join } from 'node:path';

/**
 * The group's files in the sync folder, beside the machines' export folders (`DIR/<machine id>/`,
 * the engine's): `.group/` is not a machine id, so the engine passes it by. Every file is age,
 * sealed to the group's shared recipient and each member's.
 */
export function groupLayout(dir: string) {
  const root = join(dir, '.group');
  return {
    root,
    /** The founder's record: the group id, its shared recipient, the founder machine. */
    founder: join(root, 'founder.age'),
    machines: join(root, 'machines'),
    /** A machine's admission, `machines/<machine id>.age`. */
    machine: (id: string) => join(root, 'machines', `${id}.age`),
    invites: join(root, 'invites'),
    /** An invite, signed by the member who made it: `invites/<invite id>.age`. */
    invite: (id: string) => join(root, 'invites', `${id}.age`),
    /**
     * What the joiner needs (the group's shared identity), sealed to the code's age recipient as
     * well as the group's; replaced by a closed record once used or expired.
     */
    inviteKey: (id: string) => join(root, 'invites', `${id}.code.age`),
  };
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Names the group writes; anything else (a sync tool's temporary file or conflicted copy) is passed by. */
export const RECORD_NAME = new RegExp(`^(${UUID})\\.age$`);
export const INVITE_KEY_NAME = new RegExp(`^(${UUID})\\.code\\.age$`);
