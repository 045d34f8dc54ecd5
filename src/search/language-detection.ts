/**
 * Which language a text is written in (eld, n-grams), to pick its stemmer for keyword search.
 * eld loads its data asynchronously (about a quarter of a second), and full-text rows are
 * written inside synchronous SQLite transactions: a writer awaits {@link preloadLanguageDetector}
 * before its first transaction, and {@link detectLanguage} refuses to guess before that.
 */

interface Detector {
  detect(text: string): {
    language: string;
    isReliable(): boolean;
    getScores(): Record<string, number>;
  };
}

let detector: Detector | undefined;
let loading: Promise<void> | undefined;

/** Loads eld's data once (later calls share the first); detection is synchronous after it. */
export function preloadLanguageDetector(): Promise<void> {
  loading ??= (async () => {
    const { eld } = await import('eld');
    // 'small' rather than eld's default 'medium': measured 0.24 s to load, and as sure of the
    // languages that are stemmed (their texts are long enough).
    if ('load' in eld) await eld.load('small');
    detector = eld;
  })();
  return loading;
}

/** Whether {@link preloadLanguageDetector} has finished. */
export function languageDetectorReady(): boolean {
  return detector !== undefined;
}

/**
 * The ISO 639-1 code of the language `text` is written in, or undefined when eld is not sure
 * (short or mixed text). Throws when the detector is not loaded: a silent guess would index a
 * conversation with the wrong stems.
 */
export function detectLanguage(text: string): string | undefined {
  if (!detector)
    throw new Error('the language detector is not loaded: await preloadLanguageDetector() first');
  const result = detector.detect(text);
  return result.language !== '' && result.isReliable() ? result.language : undefined;
}

/**
 * eld's score (0 to 1) of each language it finds `text` near, the detected one highest; a
 * language it finds nothing of is absent. Throws when the detector is not loaded.
 */
export function languageScores(text: string): Readonly<Record<string, number>> {
  if (!detector)
    throw new Error('the language detector is not loaded: await preloadLanguageDetector() first');
  return detector.detect(text).getScores();
}

/**
 * Runs `run` (a writer's synchronous step) now when it does not need the detector or the
 * detector is loaded, else once it is.
 */
export function afterLanguageDetector(needed: boolean, run: () => void): void | Promise<void> {
  if (!needed || detector) {
    run();
    return;
  }
  return preloadLanguageDetector().then(run);
}
