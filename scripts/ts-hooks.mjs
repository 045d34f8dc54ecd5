// Module hooks for ts-loader.mjs: `./x.js` finds `./x.ts` beside it, and TypeScript is
// stripped of its types by oxc (through rolldown, which vite brings).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'rolldown/utils';

export async function resolve(specifier, context, nextResolve) {
  if (
    specifier.startsWith('.') &&
    specifier.endsWith('.js') &&
    context.parentURL?.endsWith('.ts')
  ) {
    const ts = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(ts))) return { url: ts.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const result = transformSync(path, readFileSync(path, 'utf8'), { lang: 'ts' });
  if (result.errors.length > 0) throw new Error(`${path}: ${result.errors[0].message}`);
  return { format: 'module', source: result.code, shortCircuit: true };
}
