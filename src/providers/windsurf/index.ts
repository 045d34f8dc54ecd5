import type { Detection, Provider } from '../provider.js';

const CASCADE =
  /(^|[\\/])\.codeium[\\/]windsurf[\\/]cascade[\\/][^\\/]+\.pb$|(^|\/)cascade\/[^/]+\.pb$/;

/**
 * Claims Windsurf's Cascade conversations (`~/.codeium/windsurf/cascade/<id>.pb`) to report
 * them: they are encrypted protobuf, which chatgraph cannot read.
 */
export function detectWindsurf(path: string, _head: string, where?: string): Detection | undefined {
  if (!CASCADE.test(path) && !CASCADE.test(where ?? '')) return undefined;
  return { role: 'unreadable', format: { kind: 'text-file' }, variant: 'cascade-pb' };
}

/** Windsurf's Cascade conversations: found and reported, not read. */
export const windsurf: Provider = {
  name: 'windsurf',
  source: 'windsurf',
  label: 'Windsurf',
  product: 'Windsurf Cascade',
  howToExport:
    'not readable: Windsurf keeps Cascade conversations encrypted (~/.codeium/windsurf/cascade/*.pb); chatgraph import --agents finds and counts them. To keep one, export it from Windsurf as Markdown',
  fileNames: CASCADE,
  agent: {
    writes: 'rewrite',
    locations: [{ platforms: ['linux', 'darwin', 'win32'], path: '~/.codeium/windsurf/cascade' }],
    unreadable:
      'Windsurf keeps its Cascade conversations as encrypted protobuf files whose format is not public',
  },
  detect: detectWindsurf,
  toConversation: () => undefined,
};
