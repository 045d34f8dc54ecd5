import type { Command } from 'commander';
import { readConfigFile, type ConfigFile } from './config-file.js';
import { SETTINGS, type Setting } from './settings.js';

/** The command's name with its parents' below the program's (`model fetch`). */
function commandName(command: Command): string {
  const names: string[] = [];
  for (let at = command; at.parent !== null; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function applies(setting: Setting, command: Command, options: ReadonlySet<string>): boolean {
  if (setting.command !== undefined && setting.command !== commandName(command)) return false;
  // The password has no flag (it would be seen in `ps`): it goes wherever the server's address does.
  return options.has(setting.option === 'neo4jPassword' ? 'neo4j' : setting.option);
}

/**
 * Fills the options of the command about to run from the config file, where neither its flag
 * nor its environment variable gives a value (flag > environment > file > default). The file is
 * read only here, so `--help` and a mistyped command never read it.
 */
export function applyConfig(
  command: Command,
  env: NodeJS.ProcessEnv = process.env,
  file: ConfigFile = readConfigFile(env),
): void {
  if (!file.found) return;
  const options = new Set(command.options.map((option) => option.attributeName()));
  for (const setting of SETTINGS) {
    if (!applies(setting, command, options)) continue;
    if (command.getOptionValueSource(setting.option) === 'cli') continue;
    if (setting.env !== undefined && env[setting.env]) continue;
    if (setting.withNeo4j && command.getOptionValue('neo4j') === undefined && !env.NEO4J_URI)
      continue;
    const value = setting.read(file.values, file.path);
    if (value !== undefined) command.setOptionValueWithSource(setting.option, value, 'config');
  }
}
