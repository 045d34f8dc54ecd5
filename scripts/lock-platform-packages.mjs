// Adds lockfile entries for optional platform packages the registry reachable here does not
// serve (e.g. @grafeo-db/js-darwin-arm64: 404), so that `npm ci` accepts the lockfile. Each
// entry carries its os/cpu (read from the napi-rs package name), so npm skips it on other
// platforms and fetches it on its own. Run after `npm install` changes package-lock.json.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const entry of Object.values(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (packages[target]) continue;
    const os = ['darwin', 'linux', 'win32', 'freebsd', 'android'].find((o) =>
      name.includes(`-${o}`),
    );
    const cpu = ['x64', 'arm64', 'ia32', 'arm'].find((c) => name.includes(`-${c}`));
    if (!os || !cpu) continue;
    const libc = name.endsWith('-musl') ? ['musl'] : name.endsWith('-gnu') ? ['glibc'] : undefined;
    packages[target] = { version, cpu: [cpu], ...(libc ? { libc } : {}), optional: true, os: [os] };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0,
  ),
);
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`added ${added} platform package entr${added === 1 ? 'y' : 'ies'}\n`);
