import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { STEM_LANGUAGES, stemmerClass } from './stemming.js';

const require = createRequire(import.meta.url);

describe('each stemmer loaded from its own file (issue 46)', () => {
  it('is the very class its nlp.js package exports, so every stem is as before', () => {
    for (const language of STEM_LANGUAGES) {
      const exported: unknown = Reflect.get(
        require(`@nlpjs/lang-${language}`) as object,
        `Stemmer${language[0]?.toUpperCase() ?? ''}${language.slice(1)}`,
      );
      expect(typeof exported).toBe('function');
      expect(stemmerClass(language)).toBe(exported);
    }
  });
});
