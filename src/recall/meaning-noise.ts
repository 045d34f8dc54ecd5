import { noiseTexts } from '../embed/noise-texts.js';
import { meaningCutoffOf } from '../embed/model-catalog.js';
import { noiseLevel, type MeaningTest } from '../search/meaning-cutoff.js';
import type { Folder } from '../folder/folder.js';
import { readEmbeddingSettings, type EmbeddingSettings } from './embedding-settings.js';

/** Vectors as one base64 text of their float32 values, end to end. */
export function encodeVectors(vectors: readonly Float32Array[]): string {
  const bytes = Buffer.alloc(vectors.reduce((n, v) => n + v.byteLength, 0));
  let at = 0;
  for (const v of vectors) {
    bytes.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at);
    at += v.byteLength;
  }
  return bytes.toString('base64');
}

/** The vectors of {@link encodeVectors}; none when the text does not hold whole ones. */
export function decodeVectors(text: string, dimensions: number): Float32Array[] {
  const bytes = Buffer.from(text, 'base64');
  const size = dimensions * 4;
  if (dimensions <= 0 || bytes.length === 0 || bytes.length % size !== 0) return [];
  const out: Float32Array[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const copy = new Uint8Array(bytes.subarray(at, at + size));
    out.push(new Float32Array(copy.buffer));
  }
  return out;
}

/** A model's vectors of the texts that mean nothing, made with `embed`. */
export function makeNoise(
  embed: (texts: readonly string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  return embed(noiseTexts());
}

/** The noise vectors a data folder's settings hold for `model`, if they are that model's. */
export function savedNoise(
  settings: EmbeddingSettings,
  model: string,
  dimensions: number,
): Float32Array[] | undefined {
  if (settings.noise?.model !== model) return undefined;
  const vectors = decodeVectors(settings.noise.vectors, dimensions);
  return vectors.length > 0 ? vectors : undefined;
}

/** The noise vectors saved in a data folder for `model` (none when they are another model's). */
export function readSavedNoise(
  folder: Folder | undefined,
  model: string,
  dimensions: number,
): Float32Array[] | undefined {
  if (folder === undefined) return undefined;
  return savedNoise(readEmbeddingSettings(folder), model, dimensions);
}

/** How one vector's matches are judged: its noise level and its model's calibrated cutoff. */
export function meaningTest(
  vector: Float32Array,
  noise: readonly Float32Array[],
  model: string,
): MeaningTest {
  return { noise: noiseLevel(vector, noise), ...meaningCutoffOf(model) };
}
