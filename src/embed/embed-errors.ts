/**
 * No usable local model: not installed, or its files do not match their checksums. The message
 * is one sentence that names the model and the command that installs it.
 */
export class ModelNotInstalledError extends Error {
  override name = 'ModelNotInstalledError';
}

/** An embedding endpoint failed: one sentence naming the endpoint and what went wrong. */
export class EmbeddingEndpointError extends Error {
  override name = 'EmbeddingEndpointError';
}

/** A model could not be fetched (every source failed, or a checksum did not match). */
export class ModelFetchError extends Error {
  override name = 'ModelFetchError';
}

/** A model source's host did not answer at all (no network path, no DNS, no answer in time). */
export class SourceUnreachableError extends Error {
  override name = 'SourceUnreachableError';
}
