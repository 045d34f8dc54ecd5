import { z } from 'zod';
import type { Folder } from '../folder/folder.js';

/**
 * How a data folder's vectors were made (`embedding.json`): the model, or the endpoint and its
 * model, so a search embeds its query the same way without being told again.
 */
export interface EmbeddingSettings {
  model?: string | undefined;
  endpoint?: string | undefined;
  /** Why `embed` took the model when none was named: the sample's language shares, in a sentence. */
  reason?: string | undefined;
  /** Language (ISO 639-1) -> its share of the sampled messages, when `embed` chose the model. */
  languages?: Record<string, number> | undefined;
  /**
   * The model's vectors of texts that mean nothing (`embed/noise-texts.ts`), float32 in base64,
   * made once by `embed`: each query's noise level is read from them without loading the model.
   */
  noise?: { model: string; vectors: string } | undefined;
  /**
   * Each language's mean vector and each embedded conversation's language, kept by `embed` for
   * the models that search centred by language (`language-centring.ts`).
   */
  centring?: StoredCentres | undefined;
}

/** The form of the language means in `embedding.json`: means in base64 float32. */
export const storedCentresSchema = z.object({
  model: z.string().min(1),
  languages: z.record(
    z.string(),
    z.object({ count: z.number().int().positive(), mean: z.string() }),
  ),
  conversations: z.record(z.string(), z.string()),
});
export type StoredCentres = z.infer<typeof storedCentresSchema>;

const settingsSchema = z.object({
  model: z.string().min(1).optional(),
  endpoint: z.string().min(1).optional(),
  reason: z.string().optional(),
  languages: z.record(z.string(), z.number()).optional(),
  noise: z.object({ model: z.string().min(1), vectors: z.string() }).optional(),
  centring: storedCentresSchema.optional(),
});

/** The data folder's embedding settings, or none (a bad file is reported, not used). */
export function readEmbeddingSettings(folder: Folder): EmbeddingSettings {
  const file = folder.layout.embeddingSettings;
  const text = folder.files.readTextSync(file);
  if (text === undefined) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${file} is not JSON (${error instanceof Error ? error.message : String(error)}): fix or delete it, then run chatgraph embed`,
      { cause: error },
    );
  }
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `${file} is not an embedding settings file (${parsed.error.issues[0]?.message ?? 'bad shape'}): fix or delete it`,
    );
  return parsed.data;
}

/** Records how the data folder's vectors were made. */
export async function writeEmbeddingSettings(
  folder: Folder,
  settings: EmbeddingSettings,
): Promise<void> {
  await folder.files.write(
    folder.layout.embeddingSettings,
    `${JSON.stringify(settings, null, 2)}\n`,
  );
}
