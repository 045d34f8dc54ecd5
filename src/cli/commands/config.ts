import type { Command } from 'commander';
import { resolveDataDir } from '../../index.js';
import { shownUrl } from '../../api/query.js';
import type { CliIo } from '../cli-io.js';
import { readConfigFile } from '../config/config-file.js';
import { SETTINGS, settingsInForce, type SettingInForce } from '../config/settings.js';
import { formatTable } from '../format-table.js';
import { dataDirOption, type StoreOptions } from '../store-options.js';

export type ConfigOptions = Pick<StoreOptions, 'dataDir' | 'neo4j' | 'user' | 'database'> & {
  json?: boolean;
};

/**
 * `chatgraph config`: every setting in force and where it came from; `flags` are the options
 * typed on the command line, by attribute (`dataDir`).
 */
export function runConfig(
  flags: Record<string, string | undefined>,
  options: { json?: boolean | undefined },
  io: CliIo,
): void {
  const file = readConfigFile();
  const settings = settingsInForce(flags, file).map(shown);
  if (options.json === true) {
    io.out(JSON.stringify({ file: { path: file.path, found: file.found }, settings }));
    return;
  }
  io.out(`config file: ${file.path}${file.found ? '' : ' (none there)'}`);
  const rows = settings.map((s) => ({
    setting: s.key,
    value: String(s.value),
    from: s.from !== undefined ? `${s.source} ${s.from}` : s.source,
  }));
  io.out(formatTable(rows, 200));
}

/** A secret as "(set)"; the default data folder as the path it is. */
function shown(setting: SettingInForce): SettingInForce {
  const secret = SETTINGS.find((s) => s.key === setting.key)?.secret === true;
  if (secret && setting.source !== 'default') return { ...setting, value: '(set)' };
  // A password written into the address is as secret as the password setting.
  if (setting.key === 'neo4j.uri' && typeof setting.value === 'string')
    return { ...setting, value: shownUrl(setting.value) };
  if (setting.key === 'data-dir' && setting.source === 'default')
    return { ...setting, value: resolveDataDir() };
  return setting;
}

export function registerConfig(program: Command, io: CliIo): void {
  program
    .command('config')
    .description(
      'show the settings in force (data folder, Neo4j, model, servers) and where each came from: flag, environment, config file or default',
    )
    .option(...dataDirOption)
    .option('--neo4j <url>', 'as on the store commands')
    .option('--user <name>', 'as on the store commands')
    .option('--database <name>', 'as on the store commands')
    .option('--json', 'print {file: {path, found}, settings: [{key, value, source, from?}]}')
    .action((options: ConfigOptions, command: Command) => {
      // The file has filled this command's options too: only those typed count as flags.
      const typed = (key: 'dataDir' | 'neo4j' | 'user' | 'database'): string | undefined =>
        command.getOptionValueSource(key) === 'cli' ? options[key] : undefined;
      const flags = {
        dataDir: typed('dataDir'),
        neo4j: typed('neo4j'),
        user: typed('user'),
        database: typed('database'),
      };
      runConfig(flags, { json: options.json }, io);
    });
}
