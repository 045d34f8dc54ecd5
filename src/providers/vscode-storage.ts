import type { AgentLocation } from './provider.js';

/** The editors of the VS Code family whose extensions keep their data in `User/globalStorage`. */
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf', 'Trae', 'Kiro'];

/**
 * Where a VS Code extension keeps a folder of its global storage, in every editor of the
 * family, on each platform: `$XDG_CONFIG_HOME/<editor>/User/globalStorage/<extension>/…` on
 * Linux, `~/Library/Application Support/<editor>/…` on macOS, `%APPDATA%/<editor>/…` on
 * Windows, and a remote machine's `~/.vscode-server/data/User/globalStorage/…`.
 */
export function extensionStorage(extensionId: string, folder: string): AgentLocation[] {
  return editorStorage(`User/globalStorage/${extensionId}/${folder}`);
}

/**
 * A folder of every editor of the family's user data (`User/workspaceStorage`), on each
 * platform, as `extensionStorage` places it.
 */
export function editorStorage(below: string): AgentLocation[] {
  const locations: AgentLocation[] = EDITORS.flatMap((editor): AgentLocation[] => [
    { platforms: ['linux'], path: `$XDG_CONFIG_HOME/${editor}/${below}` },
    { platforms: ['darwin'], path: `~/Library/Application Support/${editor}/${below}` },
    { platforms: ['win32'], path: `%APPDATA%/${editor}/${below}` },
  ]);
  locations.push({ platforms: ['linux', 'darwin'], path: `~/.vscode-server/data/${below}` });
  return locations;
}
