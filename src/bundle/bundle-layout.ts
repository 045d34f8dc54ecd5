/**
 * Where a PAM bundle's files are, as the bundle's code is handed them (the names are spelled
 * once, in the data folder's layout, `folder/layout.ts`): absolute paths.
 */
export interface BundleLayout {
  /** The bundle folder. */
  dir: string;
  /** PAM's memory store: memories, relations and the conversations' index. */
  memoryStore: string;
  /** The memories changed since `memoryStore` was written whole (chatgraph's, beside it). */
  memoryJournal: string;
  /** PAM's embeddings file: the memories' vectors. */
  embeddings: string;
  /** The PAM exports the bundle took in and wrote out (chatgraph's). */
  pamExports: string;
  /** chatgraph's signed manifest of every file (docs/pam-trust.md). */
  signatureManifest: string;
  /** The folder of conversation files, and the attachments' folder. */
  conversations: string;
  attachments: string;
  /** A conversation's file. */
  conversation(id: string): string;
  /** A conversation file's bundle-relative path, as the index's `storage.ref` names it. */
  conversationRef(id: string): string;
  /**
   * Where an attachment's bundle-relative ref (`attachments/…`) is, or undefined when it points
   * outside the attachments folder.
   */
  attachment(ref: string): string | undefined;
}
