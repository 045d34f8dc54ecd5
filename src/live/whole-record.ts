import type { Conversation } from '../model/pam.js';
import type { ConversionContext, GrowingLog, Provider } from '../providers/provider.js';

/**
 * How a followed record is read: JSON Lines appended (`lines`, each call adds the new ones),
 * or a whole value read again at each change (`document`: a rewritten JSON file, a file set,
 * a session of a SQLite store; each call gives the latest).
 */
export type RecordShape = 'lines' | 'document';

/**
 * The conversion of an agent whose provider converts only whole records (see `AgentStore.grow`):
 * at each call its provider converts the record as it stands, as `import` would convert the
 * file now. The store is then written only what changed (see `LiveStoreWriter`).
 */
export class WholeRecord implements GrowingLog {
  private readonly entries: unknown[] = [];
  private value: unknown;
  /** A file set's files beside its claimed JSON Lines log, as text, by the name its format gives. */
  side: Record<string, string> | undefined;
  rebuilds = 0;
  readonly change = undefined;

  constructor(
    private readonly provider: Pick<Provider, 'toConversation'>,
    private readonly variant: string,
    private readonly context: ConversionContext,
    private readonly shape: RecordShape,
  ) {}

  add(items: readonly unknown[]): Conversation[] {
    if (this.shape === 'lines') for (const item of items) this.entries.push(item);
    else if (items.length > 0) this.value = items[items.length - 1];
    this.rebuilds++;
    const main =
      this.shape === 'lines'
        ? { entries: this.entries, badLines: [], cutLastLine: false }
        : this.value;
    const raw = this.side !== undefined ? { main, side: this.side } : main;
    const converted = this.provider.toConversation(raw, this.variant, this.context);
    return converted === undefined ? [] : Array.isArray(converted) ? converted : [converted];
  }
}
