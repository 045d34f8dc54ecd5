/**
 * The group layer of `chatgraph sync DIR` (see GROUP.md): which machines are the person's, their
 * keys, and how a file of DIR is sealed to them all and opened. The engine (exports, imports,
 * the CLI) calls these.
 */
export { SyncRefusal } from './errors.js';
export { configDir } from './machine-identity.js';
export type { Machine } from './roster.js';
export {
  INVITE_LIFETIME_MS,
  type GroupOptions,
  type InviteOptions,
  type SigningKeyLike,
  type SyncGroup,
} from './sealed-group.js';
export { openGroup } from './group.js';
export { inviteMachine } from './invite.js';
export { joinGroup } from './join.js';
export { groupLayout } from './folder-layout.js';
