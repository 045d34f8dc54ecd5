import { describe, expect, it } from 'vitest';
import { findProvider } from '../providers/registry.js';
import type { Provider } from '../providers/provider.js';
import { agentRoots, type LookIn } from './agent-locations.js';

function roots(source: string, at: LookIn): string[] {
  const provider = findProvider(source) as Provider;
  return agentRoots(provider, at).map((root) => root.path);
}

const linux: LookIn = { platform: 'linux', home: '/home/ada', env: {} };
const mac: LookIn = { platform: 'darwin', home: '/Users/ada', env: {} };
const windows: LookIn = {
  platform: 'win32',
  home: 'C:\\Users\\ada',
  env: {
    APPDATA: 'C:\\Users\\ada\\AppData\\Roaming',
    LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local',
  },
};

describe('agentRoots', () => {
  it('puts each agent’s folders where it keeps them on Linux, macOS and Windows', () => {
    expect(roots('codex', linux)).toEqual([
      '/home/ada/.codex/sessions',
      '/home/ada/.codex/archived_sessions',
    ]);
    expect(roots('codex', windows)).toEqual([
      'C:\\Users\\ada\\.codex\\sessions',
      'C:\\Users\\ada\\.codex\\archived_sessions',
    ]);
    expect(roots('cline', linux)).toContain(
      '/home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks',
    );
    expect(roots('roo-code', mac)).toContain(
      '/Users/ada/Library/Application Support/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks',
    );
    expect(roots('kilo-code', windows)).toContain(
      'C:\\Users\\ada\\AppData\\Roaming\\VSCodium\\User\\globalStorage\\kilocode.kilo-code\\tasks',
    );
    expect(roots('gemini-cli', mac)).toEqual(['/Users/ada/.gemini/tmp']);
    expect(roots('claude-code', linux)).toEqual([
      '/home/ada/.claude/projects',
      '/home/ada/.config/claude/projects',
    ]);
    expect(roots('claude-code', mac)).toEqual(['/Users/ada/.claude/projects']);
    expect(roots('windsurf', windows)).toEqual(['C:\\Users\\ada\\.codeium\\windsurf\\cascade']);
  });

  it('takes the environment’s overrides first: one folder, or a comma-separated list', () => {
    expect(roots('codex', { ...linux, env: { CODEX_HOME: '/srv/codex' } })).toEqual([
      '/srv/codex/sessions',
      '/srv/codex/archived_sessions',
      '/home/ada/.codex/sessions',
      '/home/ada/.codex/archived_sessions',
    ]);
    expect(
      roots('claude-code', { ...mac, env: { CLAUDE_CONFIG_DIR: '/a, /b' } }).slice(0, 2),
    ).toEqual(['/a/projects', '/b/projects']);
    expect(roots('qwen-code', { ...linux, env: { QWEN_RUNTIME_DIR: '/run/qwen' } })[0]).toBe(
      '/run/qwen/projects',
    );
    expect(roots('cline', { ...linux, env: { CLINE_DIR: '/opt/cline' } })[0]).toBe(
      '/opt/cline/data/tasks',
    );
    expect(
      roots('gemini-cli', {
        ...windows,
        env: { ...windows.env, GEMINI_CLI_HOME: 'D:\\gemini' },
      })[0],
    ).toBe('D:\\gemini\\.gemini\\tmp');
  });

  it('uses XDG_CONFIG_HOME when it is an absolute path, its default otherwise', () => {
    const cline = (env: Record<string, string>): string | undefined =>
      roots('cline', { ...linux, env }).find((p) => p.includes('/Code/'));
    expect(cline({ XDG_CONFIG_HOME: '/x/conf' })).toBe(
      '/x/conf/Code/User/globalStorage/saoudrizwan.claude-dev/tasks',
    );
    expect(cline({ XDG_CONFIG_HOME: 'relative/conf' })).toBe(
      '/home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks',
    );
    expect(cline({ XDG_CONFIG_HOME: '' })).toBe(
      '/home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks',
    );
  });
});
