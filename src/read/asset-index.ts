import { ATTACHMENTS_DIR } from '../bundle/layout.js';
import { baseName, type Entry } from './entry.js';

// ChatGPT asset files start with their id: `file-<id>-<name>`, `file_<hex>-<name>`, `file-<id>.dat`.
const ASSET_ID = /^(file[-_][A-Za-z0-9]+)/;
const EXPORT_DATA = /\.(json|jsonl|html)$/i;

function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_').slice(0, 180) || 'file';
}

/** A file of the export that a message points to, and where it goes in the bundle. */
export interface ResolvedAsset {
  entry: Entry;
  ref: string;
}

/** Finds export files by the ids that messages point to (`file-service://file-abc`, `sediment://file_01`). */
export class AssetIndex {
  private readonly byId = new Map<string, Entry>();
  private readonly refs = new Map<Entry, string>();
  private readonly taken = new Set<string>();
  private readonly originalNames = new Map<string, string>();

  constructor(entries: readonly Entry[]) {
    for (const entry of entries) {
      const name = baseName(entry.path);
      if (EXPORT_DATA.test(name)) continue;
      const id = ASSET_ID.exec(name)?.[1];
      if (id !== undefined && !this.byId.has(id)) this.byId.set(id, entry);
      if (!this.byId.has(name)) this.byId.set(name, entry);
    }
  }

  /** Records the original names of `.dat` files (`conversation_asset_file_names.json`). */
  addOriginalNames(pairs: readonly (readonly [string, string])[]): void {
    for (const [dat, original] of pairs) this.originalNames.set(dat, original);
  }

  /** The file a pointer names, with its bundle ref, or undefined when the export lacks it. */
  resolve(pointer: string): ResolvedAsset | undefined {
    const id = pointer.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\/+/, '');
    const entry = this.byId.get(id) ?? this.byId.get(ASSET_ID.exec(id)?.[1] ?? '');
    if (!entry) return undefined;
    let ref = this.refs.get(entry);
    if (ref === undefined) {
      const name = baseName(entry.path);
      const original = this.originalNames.get(name);
      const assetId = ASSET_ID.exec(name)?.[1];
      let file =
        original !== undefined
          ? `${assetId ?? name.replace(/\.dat$/i, '')}-${baseName(original)}`
          : name;
      file = sanitize(file);
      let candidate = `${ATTACHMENTS_DIR}/${file}`;
      for (let n = 2; this.taken.has(candidate); n++) candidate = `${ATTACHMENTS_DIR}/${n}-${file}`;
      ref = candidate;
      this.taken.add(ref);
      this.refs.set(entry, ref);
    }
    return { entry, ref };
  }
}
