import type { Folder } from '../folder/folder.js';
import { plural, thousands } from '../model/plural.js';
import { shownUrl, withoutSecrets, type Neo4jTarget } from '../stores/neo4j/neo4j-target.js';
import { fix, ok, type DoctorCheck } from './check.js';

/** How many conversations the data folder's bundle holds (its conversation files). */
export function bundleConversations(folder: Folder): number {
  return folder.files
    .namesSync(folder.layout.bundle.conversations)
    .filter((n) => n.endsWith('.json')).length;
}

/** Neo4j answers, and holds as many conversations as the bundle (else a push completes it). */
export async function neo4jCheck(
  folder: Folder,
  target: Neo4jTarget,
  flags: string,
): Promise<DoctorCheck> {
  let held: number;
  try {
    const store = await folder.openStore({ readonly: true });
    try {
      held = await store.conversationCount();
    } finally {
      await store.close();
    }
  } catch (error) {
    const why = withoutSecrets(error instanceof Error ? error.message : String(error), target);
    return fix(
      'neo4j',
      `cannot reach ${shownUrl(target.url)}: ${why}`,
      `start the server, or check neo4j.uri and the password (chatgraph config)`,
    );
  }
  const bundled = bundleConversations(folder);
  if (held === bundled)
    return ok(
      'neo4j',
      `${shownUrl(target.url)} reachable, ${plural(held, 'conversation')} as in the bundle`,
    );
  return fix(
    'neo4j',
    `${shownUrl(target.url)} holds ${plural(held, 'conversation')}, the bundle ${thousands(bundled)}`,
    `chatgraph push${flags}`,
  );
}
