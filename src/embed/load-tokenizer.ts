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
  const tokenizer = new module.Tokenizer(json, config);
  // The JS library fuses runs of unknown characters into one <unk> whatever the model says;
  // SentencePiece models converted by us say `fuse_unk: false` (one id per character, as the
  // encoder saw in training), so that is put back on the model object.
  // (The library's models are callable objects: functions.)
  if (saysNoFuse(json) && 'model' in tokenizer && typeof tokenizer.model === 'function')
    Object.assign(tokenizer.model, { fuse_unk: false });
  return tokenizer;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function saysNoFuse(json: object): boolean {
  return 'model' in json && isObject(json.model) && json.model.fuse_unk === false;
}
