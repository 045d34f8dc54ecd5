#!/usr/bin/env node
// Provisions what the test suite needs beyond `npm ci`, idempotently, so that the README's test
// command passes on a fresh clone: the official PAM validator and the official Python MCP SDK
// (each in a venv inside the checkout, git-ignored), Debian's Chromium, and Java 17 with Maven
// (a real Neo4j runs from Maven Central). What is missing and cannot be installed here stops the
// run at once with one line naming what to install; nothing is skipped silently. The embedding
// model is fetched by the test run's global set-up (test/support/global-setup.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The Python packages of each venv, pinned: the versions the tests were written against. */
const VENVS = [
  {
    dir: '.venv-pam',
    what: 'the official PAM validator',
    packages: ['portable-ai-memory[cli]==1.0.0'],
    probe: ['-c', 'import portable_ai_memory'],
  },
  {
    // 1.30.0 speaks protocol 2025-11-25, as @modelcontextprotocol/sdk 1.32.2 does.
    dir: '.venv-mcp',
    what: 'the official Python MCP SDK',
    packages: ['mcp==1.30.0', 'jsonschema==4.26.0'],
    probe: ['-c', 'import mcp, jsonschema'],
  },
  {
    // The signature test's own verifier, written from PAM's section 18 and Appendix D.
    dir: '.venv-sign',
    what: 'an independent PAM signature verifier (cryptography, rfc8785)',
    packages: ['cryptography==50.0.2', 'rfc8785==0.1.4'],
    probe: ['-c', 'import cryptography, rfc8785'],
  },
];

/** Debian packages for tools the tests drive, by the command each provides. */
const SYSTEM = [
  {
    command: 'python3',
    found: () => works('python3', ['--version']),
    apt: ['python3', 'python3-venv'],
  },
  { command: 'chromium', found: () => existsSync('/usr/bin/chromium'), apt: ['chromium'] },
  { command: 'java 17+', found: javaFound, apt: ['openjdk-17-jdk-headless'] },
  { command: 'mvn', found: () => works('mvn', ['--version']), apt: ['maven'] },
  // Info-ZIP's zip writes some of the foreign archives the zip reader is tested on.
  { command: 'zip', found: () => works('zip', ['-v']), apt: ['zip'] },
  // Zed's agent threads are zstd frames: the fixtures compress theirs with the real tool.
  { command: 'zstd', found: () => works('zstd', ['--version']), apt: ['zstd'] },
  // The completion test checks the zsh script with `zsh -n`.
  { command: 'zsh', found: () => works('zsh', ['--version']), apt: ['zsh'] },
  // The encryption test opens what chatgraph encrypts with the age CLI itself.
  { command: 'age', found: () => works('age', ['--version']), apt: ['age'] },
];

function works(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return result.status === 0;
}

function javaFound() {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.status !== 0) return false;
  const match = /version "(\d+)/.exec(`${result.stderr}${result.stdout}`);
  return match !== null && Number(match[1]) >= 17;
}

function say(line) {
  process.stderr.write(`provision: ${line}\n`);
}

/** Stops with one line: what is missing and how to get it. */
function stop(line) {
  say(line);
  process.exit(1);
}

function canApt() {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return root && existsSync('/etc/debian_version') && works('apt-get', ['--version']);
}

let aptUpdated = false;
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const options = { stdio: ['ignore', 'ignore', 'inherit'], env };
  if (!aptUpdated) {
    execFileSync('apt-get', ['update', '-qq'], options);
    aptUpdated = true;
  }
  execFileSync(
    'apt-get',
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
    options,
  );
}

function provisionSystem() {
  const missing = SYSTEM.filter((tool) => !tool.found());
  if (missing.length === 0) return;
  const packages = missing.flatMap((tool) => tool.apt);
  const names = missing.map((tool) => tool.command).join(', ');
  if (!canApt()) {
    stop(
      `the tests need ${names}: install ${packages.join(' ')} (Debian package names), then run again`,
    );
  }
  say(`installing ${packages.join(' ')} with apt-get (for ${names})`);
  aptInstall(packages);
  const still = missing.filter((tool) => !tool.found()).map((tool) => tool.command);
  if (still.length > 0) stop(`apt-get ran, but ${still.join(', ')} is still missing`);
}

function venvReady(venv) {
  const python = join(ROOT, venv.dir, 'bin', 'python');
  return existsSync(python) && works(python, venv.probe);
}

function makeVenv(dir) {
  const made = spawnSync('python3', ['-m', 'venv', '--clear', dir], { stdio: 'ignore' });
  if (made.status === 0) return;
  if (!canApt()) stop(`python3 cannot make a venv: install python3-venv, then run again`);
  aptInstall(['python3-venv']);
  execFileSync('python3', ['-m', 'venv', '--clear', dir], { stdio: 'inherit' });
}

function provisionVenvs() {
  for (const venv of VENVS) {
    if (venvReady(venv)) continue;
    say(`installing ${venv.what} into ${venv.dir} (${venv.packages.join(' ')})`);
    const dir = join(ROOT, venv.dir);
    makeVenv(dir);
    const pip = spawnSync(
      join(dir, 'bin', 'pip'),
      ['install', '-q', '--disable-pip-version-check', ...venv.packages],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (pip.status !== 0 || !venvReady(venv)) {
      stop(`could not install ${venv.packages.join(' ')} into ${venv.dir} (is PyPI reachable?)`);
    }
  }
}

function checkNodeModules() {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json')) || lock.lockfileVersion < 2) {
    stop('node_modules is missing: run `npm ci` first');
  }
}

checkNodeModules();
provisionSystem();
provisionVenvs();
