// Before tsc: dist/ starts empty, so a module moved or deleted in src/ cannot live on as a stale
// compiled file that tests or the package still find (a moved write-lock.js once passed every
// local run and failed on a fresh clone).
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
