// After tsc: the CLI is made executable (so `npx chatgraph` runs from a clean clone) and the
// web app's stylesheet goes beside its compiled modules.
import { chmodSync, copyFileSync } from 'node:fs';

chmodSync('dist/cli/main.cjs', 0o755);
chmodSync('dist/cli/main.js', 0o755);
copyFileSync('src/web/client/style.css', 'dist/web/client/style.css');
