import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { UPDATING, expectGolden } from './support/golden.js';

describe('a golden comparison', () => {
  // With UPDATE_GOLDEN=1 the helper writes files by design; the check is for ordinary runs.
  it.skipIf(UPDATING)('fails when its golden file is missing, rather than writing it', () => {
    const path = join(tempDir(), 'never-written.golden.json');
    expect(() => {
      expectGolden(path, { a: 1 });
    }).toThrow(/golden file missing: .*UPDATE_GOLDEN=1/);
  });
});
