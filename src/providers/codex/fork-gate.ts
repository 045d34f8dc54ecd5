import type { LogLine } from '../log-lines.js';
import { asNumber, asObject, asString, asText } from '../untrusted.js';

/** Where a rollout's own lines are, and what of its parents' it carries. */
export interface ForkGate {
  /** The rollout's own session id (its first `session_meta`). */
  ownId: string | undefined;
  /** The session it was forked from, when it was (`forked_from_id`). */
  forkedFrom: string | undefined;
  /** Lines (by their number) replayed from the parent: stored with the parent, not here. */
  replayed: Set<number>;
  /** Other sessions' `session_meta` lines (a parent's header, a sub-agent's ancestors). */
  headers: Set<number>;
  /** A fork whose replayed part could not be told from its own: every line is kept. */
  boundaryUnknown: boolean;
}

/**
 * Finds the lines a forked rollout copied from its parent. `codex fork` (and a sub-agent
 * spawned with its parent's context) writes its own `session_meta` (with `forked_from_id`),
 * then the parent's lines again, `session_meta` included, their times stamped anew, then its
 * own turns. Turn ids are UUID v7, minted when a turn first ran: the copied turns are older
 * than the fork, its own are not. The copy ends at the first turn (`turn_context`,
 * `task_started`) minted at or after the fork's own id (or its `session_meta` time), or where
 * its own `session_meta` is written again. A fork with no such mark keeps every line, said so.
 */
export function forkGate(lines: readonly LogLine[]): ForkGate {
  const metas = lines.filter((l) => asString(l.entry?.type) === 'session_meta');
  const own = asObject(metas[0]?.entry?.payload);
  const ownId = asText(own?.id);
  const forkedFrom = asText(own?.forked_from_id);
  const gate: ForkGate = {
    ownId,
    forkedFrom,
    replayed: new Set(),
    headers: new Set(),
    boundaryUnknown: false,
  };
  for (const meta of metas.slice(1))
    if (asText(asObject(meta.entry?.payload)?.id) !== ownId) gate.headers.add(meta.line);
  if (forkedFrom === undefined || metas[0] === undefined) return gate;
  const created =
    uuidV7Time(ownId) ?? timeOf(asString(own?.timestamp) ?? asString(metas[0].entry?.timestamp));
  const start = lines.indexOf(metas[0]) + 1;
  let end: number | undefined;
  for (let i = start; i < lines.length && end === undefined; i++) {
    const entry = lines[i]?.entry;
    const type = asString(entry?.type);
    const payload = asObject(entry?.payload);
    if (type === 'session_meta' && asText(payload?.id) === ownId) end = i + 1;
    else if (startsTurn(type, payload)) {
      const turnTime = uuidV7Time(asText(payload?.turn_id)) ?? startedAt(payload);
      if (turnTime !== undefined && created !== undefined && turnTime >= created) end = i;
    }
  }
  if (end === undefined) {
    gate.boundaryUnknown = start < lines.length;
    return gate;
  }
  for (const line of lines.slice(start, end)) gate.replayed.add(line.line);
  return gate;
}

function startsTurn(
  type: string | undefined,
  payload: Record<string, unknown> | undefined,
): boolean {
  if (type === 'turn_context') return true;
  const event = asString(payload?.type);
  return type === 'event_msg' && (event === 'task_started' || event === 'turn_started');
}

/** The time (ms) a UUID v7 was minted, from its first 48 bits; undefined for another id. */
export function uuidV7Time(id: string | undefined): number | undefined {
  const match = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-/i.exec(id ?? '');
  if (!match) return undefined;
  return parseInt(`${match[1] ?? ''}${match[2] ?? ''}`, 16);
}

function timeOf(text: string | undefined): number | undefined {
  const ms = text === undefined ? NaN : Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

// `task_started.started_at`, in seconds (or milliseconds) since the epoch, when a turn id is
// not a UUID v7 (older rollouts).
function startedAt(payload: Record<string, unknown> | undefined): number | undefined {
  const value = asNumber(payload?.started_at);
  if (value === undefined) return undefined;
  return value < 1e12 ? value * 1000 : value;
}
