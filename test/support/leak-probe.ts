import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, it } from 'vitest';
import { startServe } from './serve-cli.js';

// Run by owned-process.test.ts in a vitest of its own: a beforeAll that fails after starting a
// server, as a browser that does not launch does.
const out = process.env.CHATGRAPH_LEAK_PROBE ?? '';

beforeAll(async () => {
  const { server } = await startServe(join(out, 'data'));
  writeFileSync(join(out, 'pid'), String(server.pid));
  throw new Error('the browser did not launch');
});

it('never runs', () => undefined);
