import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

/** Who may talk to the web app. */
export interface GuardOptions {
  /** The address the server listens on. */
  host: string;
  port: number;
  /** Required on every request when set (the server listens beyond this machine). */
  token?: string | undefined;
}

/** Why a request was refused. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

export const TOKEN_COOKIE = 'chatgraph_token';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether an address is this machine only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

// The names a browser may use for the server: its own address, and for a wildcard address
// every address of this machine.
function hostNames(host: string): Set<string> {
  const names = new Set<string>([host]);
  if (isLoopback(host)) for (const name of LOOPBACK) names.add(name);
  if (host === '0.0.0.0' || host === '::') {
    for (const name of LOOPBACK) names.add(name);
    names.add(hostname());
    for (const addresses of Object.values(networkInterfaces()))
      for (const address of addresses ?? [])
        names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
  }
  if (host.includes(':') && !host.startsWith('[')) names.add(`[${host}]`);
  return names;
}

/**
 * Checks a request before anything else: its Host must be the server's own address and its
 * Origin, when sent, the server's own origin (so a page elsewhere, even one whose name was
 * rebound to 127.0.0.1, is refused), and when a token is set it must come with the request
 * (a Bearer header, or the cookie set by opening the printed address).
 */
export function makeGuard(
  options: GuardOptions,
): (request: IncomingMessage) => Refusal | undefined {
  const allowed = new Set([...hostNames(options.host)].map((name) => `${name}:${options.port}`));
  const expected = options.token === undefined ? undefined : Buffer.from(options.token);
  return (request) => {
    const host = request.headers.host ?? '';
    if (!allowed.has(host.toLowerCase())) {
      return { status: 403, message: `refused: Host "${host}" is not this server's address` };
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) {
      return { status: 403, message: `refused: requests from ${origin} are not allowed` };
    }
    if (expected) {
      const given = tokenOf(request);
      // Compared as bytes: a token of as many characters, one of them multibyte, is longer.
      const bytes = given === undefined ? undefined : Buffer.from(given);
      const ok =
        bytes !== undefined && bytes.length === expected.length && timingSafeEqual(bytes, expected);
      if (!ok) {
        return {
          status: 401,
          message: 'a token is needed: open the address chatgraph serve printed (with ?token=…)',
        };
      }
    }
    return undefined;
  };
}

/** The token a request carries: Bearer header, cookie, or `?token=` in the address. */
export function tokenOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length);
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('='));
  }
  const query = new URL(request.url ?? '/', 'http://x').searchParams.get('token');
  return query ?? undefined;
}
