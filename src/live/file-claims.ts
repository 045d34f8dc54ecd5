import type { Detection, Provider } from '../providers/provider.js';
import { PROVIDERS } from '../providers/registry.js';
import { fileEntry } from '../read/file-entry.js';
import { readHead } from '../read/head.js';

/**
 * How a coding agent's file is followed, from what its provider declares: a JSON Lines log
 * appended to (`append`: read from where the last read stopped), a document rewritten in place
 * (`rewrite`: read again whole and converted again; the store is written what changed), or a
 * SQLite store (`sqlite`: polled, its sessions read again when theirs changed).
 */
export type FollowHow = 'append' | 'rewrite' | 'sqlite';

/** A provider's claim on a followed file, and how that file is followed. */
export interface FileClaim {
  provider: Provider;
  detection: Detection;
  how: FollowHow;
}

/**
 * How a file a provider claims is followed: by its format (a SQLite store is polled; a whole
 * JSON Lines file of an agent that `writes: 'append'` is tailed; any other whole file or file
 * set is read again), undefined for what is not an agent's session (an export's files are
 * imported whole instead, see `followExport`).
 */
export function howFollowed(provider: Provider, detection: Detection): FollowHow | undefined {
  if (detection.role !== 'conversations' || provider.agent === undefined) return undefined;
  const { format } = detection;
  if (format.kind === 'sqlite') return 'sqlite';
  const main = format.kind === 'file-set' ? format.main : format.kind;
  if (main === 'jsonl-file' && provider.agent.writes === 'append') return 'append';
  if (main === 'jsonl-file' || main === 'json-file' || main === 'text-file') return 'rewrite';
  return undefined;
}

// Files a provider may claim: JSON and JSON Lines by extension, the others by the names their
// providers give (a SQLite store, Aider's Markdown history).
const BY_NAME: readonly RegExp[] = PROVIDERS.flatMap((p) => (p.fileNames ? [p.fileNames] : []));

/** Whether a file's name is one a provider may claim (so its first bytes are worth reading). */
export function mayBeClaimed(path: string): boolean {
  return /\.jsonl?$/i.test(path) || BY_NAME.some((pattern) => pattern.test(path));
}

interface Known {
  ino: number;
  size: number;
  claim: FileClaim | undefined;
}

/**
 * The claims on the followed files, each file's first bytes read once: a claim holds while the
 * file is the same file (its inode); a file no provider claimed is looked at again once its
 * size changed (a log gets its first line after it was created empty).
 */
export class FileClaims {
  private readonly known = new Map<string, Known>();

  /** The claim on a file (read from its first bytes when not known), or undefined. */
  async claim(
    path: string,
    entryPath: string,
    info: { ino: number; size: number; mtimeMs: number },
    only?: Provider,
  ): Promise<FileClaim | undefined> {
    const known = this.known.get(path);
    if (known && known.ino === info.ino && (known.claim !== undefined || known.size === info.size))
      return known.claim;
    if (!mayBeClaimed(path)) return undefined;
    const entry = fileEntry(path, entryPath, entryPath, info.size, new Date(info.mtimeMs));
    const head = (await readHead(entry).catch(() => Buffer.alloc(0))).toString('utf8');
    let claim: FileClaim | undefined;
    // In the order detection asks them, as `import` does: the first provider that claims it.
    for (const provider of PROVIDERS) {
      const detection = provider.detect(entryPath, head, path);
      if (!detection) continue;
      const how = howFollowed(provider, detection);
      // Under an agent's own folder, only its sessions are followed (another agent's folder is
      // followed as that agent's).
      if (how && (only === undefined || only === provider)) claim = { provider, detection, how };
      break;
    }
    this.known.set(path, { ino: info.ino, size: info.size, claim });
    return claim;
  }

  /** The claim already known on a file, without reading it. */
  cached(path: string): FileClaim | undefined {
    return this.known.get(path)?.claim;
  }

  forget(path: string): void {
    this.known.delete(path);
  }
}
