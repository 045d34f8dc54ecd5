/**
 * The cosine similarity of two unit-length vectors: their dot product. The one copy every stage
 * that compares vectors uses (the vector index, the meaning cutoff, centring, the topic map).
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}
