/** Which model made a vector, and where it came from. */
export interface ModelInfo {
  /** Vectors of two ids never mix in one index. */
  id: string;
  dimensions: number;
  /** Tokens the model reads; longer texts are cut (chunk them first). */
  maxTokens: number;
  /** Where it came from, e.g. `pypi:…`, `hub:Xenova/…`, `dir:/path`, `endpoint:<url> model <name>`. */
  source: string;
}

/** Turns texts into unit-length vectors with one model. */
export interface Embedder {
  readonly model: ModelInfo;
  /** Sessions embedding at once, a core each (local models); absent for endpoints. */
  readonly workers?: number;
  /** Unit-length vectors, one per text, in order. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
  /** Tokens the model would see (exact for local models, an estimate for endpoints). */
  countTokens(text: string): number;
  close(): Promise<void>;
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) / norm;
  return vector;
}
