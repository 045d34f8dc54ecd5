/** `chatgraph/models`: the embedding models search by meaning uses: the catalogue, fetching, what is installed. */
export { MODEL_CATALOG, DEFAULT_MODEL } from '../embed/model-catalog.js';
export { fetchModel } from '../embed/model-fetch.js';
export type { FetchModelResult } from '../embed/model-fetch.js';
export { listInstalledModels, resolveModelDir } from '../embed/model-folder.js';
export {
  EmbeddingEndpointError,
  ModelFetchError,
  ModelNotInstalledError,
} from '../embed/embed-errors.js';
export type { EmbedReport, EmbedPlan, EmbedProgress } from '../recall/embed-conversations.js';
