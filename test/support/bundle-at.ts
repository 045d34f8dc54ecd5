import { Bundle } from '../../src/bundle/bundle.js';
import { bundleLayout } from '../../src/folder/layout.js';

/** The PAM bundle in `dir`, opened with a plain door of its own (as `convert --out` writes one). */
export function bundleAt(dir: string): Bundle {
  return new Bundle(bundleLayout(dir));
}
