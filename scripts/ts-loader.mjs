// Runs TypeScript sources in a child process started from source (tests under vitest run
// `src/**/*.ts`; the built package runs the compiled `dist/**/*.js` and never loads this).
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
