import { ATTACHMENTS_DIR, INLINE_TEXT_DIR } from '../model/bundle-refs.js';
import { baseName, type Entry } from './entry.js';

// ChatGPT asset files start with their id: `file-<id>-<name>`, `file_<hex>-<name>`, `file-<id>.dat`.
const ASSET_ID = /^(file[-_][A-Za-z0-9]+)/;
const EXPORT_DATA = /\.(json|jsonl|html)$/i;

function sanitize(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 180) || 'file'
  );
}

/** The bundle ref of the file a pointer names, from a table of {@link AssetIndex.refTable}. */
export function lookupAsset(
  table: ReadonlyMap<string, string>,
  pointer: string,
): string | undefined {
  const id = pointer.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\/+/, '');
  return table.get(id) ?? table.get(ASSET_ID.exec(id)?.[1] ?? '');
}

/**
 * Finds export files by the ids that messages point to (`file-service://file-abc`,
 * `sediment://file_01`) and gives each a stable place under `attachments/`.
 */
export class AssetIndex {
  private readonly files: Entry[] = [];
  private readonly originalNames = new Map<string, string>();
  private table: Map<string, string> | undefined;
  private readonly byRef = new Map<string, Entry>();

  constructor(entries: readonly Entry[]) {
    for (const entry of entries)
      if (!EXPORT_DATA.test(baseName(entry.path))) this.files.push(entry);
  }

  /** Records the original names of `.dat` files (`conversation_asset_file_names.json`). */
  addOriginalNames(pairs: readonly (readonly [string, string])[]): void {
    for (const [dat, original] of pairs) this.originalNames.set(dat, original);
    this.table = undefined;
  }

  /** Every id and file name mapped to its bundle ref (pure data, so workers can use it). */
  refTable(): Map<string, string> {
    if (this.table) return this.table;
    const table = new Map<string, string>();
    // An export file named `text` must not take the folder of inline texts.
    const taken = new Set<string>([INLINE_TEXT_DIR]);
    this.byRef.clear();
    for (const entry of this.files) {
      const name = baseName(entry.path);
      const original = this.originalNames.get(name);
      const assetId = ASSET_ID.exec(name)?.[1];
      const file = sanitize(
        original !== undefined
          ? `${assetId ?? name.replace(/\.dat$/i, '')}-${baseName(original)}`
          : name,
      );
      let ref = `${ATTACHMENTS_DIR}/${file}`;
      for (let n = 2; taken.has(ref); n++) ref = `${ATTACHMENTS_DIR}/${n}-${file}`;
      taken.add(ref);
      this.byRef.set(ref, entry);
      if (assetId !== undefined && !table.has(assetId)) table.set(assetId, ref);
      if (!table.has(name)) table.set(name, ref);
      // A PAM bundle's attachment refs are paths inside it (`attachments/text/<id>/1-notes.txt`):
      // found by the whole path, where two files may share a name.
      if (entry.path.includes('/') && !table.has(entry.path)) table.set(entry.path, ref);
    }
    this.table = table;
    return table;
  }

  /** The export file behind a ref. */
  entryOf(ref: string): Entry | undefined {
    this.refTable();
    return this.byRef.get(ref);
  }
}
