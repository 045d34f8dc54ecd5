/** The part of a Hugging Face tokenizer the embedder uses. */
export interface TextTokenizer {
  encode(text: string): { ids: number[] };
}

interface TokenizersModule {
  Tokenizer: new (tokenizer: object, config: object) => TextTokenizer;
}

function isTokenizersModule(value: unknown): value is TokenizersModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    'Tokenizer' in value &&
    typeof value.Tokenizer === 'function'
  );
}

/**
 * A tokenizer from a parsed `tokenizer.json` (and `tokenizer_config.json`). The package's type
 * declarations re-export without file extensions, which NodeNext resolution cannot follow, so
 * its types arrive unresolved: the module's shape is checked here instead.
 */
export async function loadTokenizer(json: object, config: object): Promise<TextTokenizer> {
  const module: unknown = await import('@huggingface/tokenizers');
  if (!isTokenizersModule(module)) throw new Error('@huggingface/tokenizers has no Tokenizer');
  return new module.Tokenizer(json, config);
}
