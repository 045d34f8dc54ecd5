import { PROVIDERS } from '../api/sources.js';
import type { Choice } from './choices.js';

// Apart from the other choices: the list of sources is the providers' registry, every provider's
// parser with it, so a command loads it only when it checks a `--source` (a cold `search` did
// for every query: issue 46).
/** The sources chatgraph reads. */
export const SOURCE_CHOICE: Choice<string> = {
  noun: 'source',
  plural: 'sources',
  listedBy: 'chatgraph sources',
  // PAM files keep each conversation's own platform: no conversation has the source `pam`;
  // nor one of a store chatgraph cannot read (Windsurf's).
  values: PROVIDERS.filter(
    (provider) => provider.carriesPlatforms !== true && provider.agent?.unreadable === undefined,
  )
    .map((provider) => provider.source)
    .sort(),
};
