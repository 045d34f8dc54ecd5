// A real Neo4j 5.26 Community server for the tests and the benchmark: the embedded database
// from Maven Central (neo4j-server/pom.xml) with Bolt on 127.0.0.1, a throwaway home folder and
// auth on. Maven's own cache (~/.m2) is reused, so only the first run downloads.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = fileURLToPath(new URL('../neo4j-server', import.meta.url));
const CLASSPATH = join(PROJECT, 'target', 'classpath.txt');
export const NEO4J_PASSWORD = 'chatgraph-test-password';

/** Compiles the launcher and lists its classpath when either is missing or stale. */
export function buildNeo4j() {
  const main = join(PROJECT, 'target', 'classes', 'chatgraph', 'TestServer.class');
  const pom = join(PROJECT, 'pom.xml');
  const source = join(PROJECT, 'src', 'main', 'java', 'chatgraph', 'TestServer.java');
  const stale =
    !existsSync(CLASSPATH) ||
    !existsSync(main) ||
    statSync(main).mtimeMs < Math.max(statSync(pom).mtimeMs, statSync(source).mtimeMs);
  if (stale) {
    execFileSync(
      'mvn',
      [
        '-q',
        '-B',
        '-f',
        pom,
        'compile',
        'dependency:build-classpath',
        `-Dmdep.outputFile=${CLASSPATH}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'], timeout: 15 * 60_000 },
    );
  }
  return `${join(PROJECT, 'target', 'classes')}:${readFileSync(CLASSPATH, 'utf8').trim()}`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function launch(classpath, home, port, heap) {
  const child = spawn(
    'java',
    [`-Xmx${heap}`, '-cp', classpath, 'chatgraph.TestServer', home, String(port), NEO4J_PASSWORD],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (chunk) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Neo4j did not start within 180 s:\n${log}`));
    }, 180_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      if (out.includes('READY')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Neo4j exited with code ${String(code)} before it was ready:\n${log}`));
    });
  });
  return child;
}

/**
 * Builds (once) and starts a server; resolves when Bolt answers. The server also ends when
 * this process does (it reads its stdin until it closes).
 */
export async function startNeo4j(options = {}) {
  const heap = options.heap ?? '1g';
  const classpath = buildNeo4j();
  const home = mkdtempSync(join(tmpdir(), 'chatgraph-neo4j-'));
  const port = await freePort();
  let child = await launch(classpath, home, port, heap);
  const stop = async (signal = 'SIGTERM') => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  return {
    target: { url: `bolt://127.0.0.1:${port}`, user: 'neo4j', password: NEO4J_PASSWORD },
    home,
    stop,
    restart: async () => {
      await stop();
      child = await launch(classpath, home, port, heap);
    },
    dispose: async () => {
      await stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
