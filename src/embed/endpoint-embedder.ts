import { z } from 'zod';
import { redactText, type RedactionCounts } from '../model/redact.js';
import { EmbeddingEndpointError } from './embed-errors.js';
import { normalize, type Embedder } from './embedder.js';

/** How to reach an OpenAI-compatible embeddings endpoint. */
export interface EndpointOptions {
  /** Base URL, e.g. `http://127.0.0.1:11434` (Ollama) or `http://localhost:1234` (LM Studio). */
  endpoint: string;
  /** The endpoint's model name, e.g. `nomic-embed-text`. */
  model?: string;
  allowRemote: boolean;
  redact: boolean;
  onWarning?: (message: string) => void;
  /** Per request (default 60 s). */
  timeoutMs?: number;
  /** Tokens a text may have, as the endpoint's model reads them (default 512, an estimate). */
  maxTokens?: number;
}

const answerSchema = z.object({
  data: z
    .array(z.object({ embedding: z.array(z.unknown()), index: z.number().int().nonnegative() }))
    .min(1),
});

/** True for hosts that are this machine: localhost, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new EmbeddingEndpointError(
      `"${endpoint}" is not an endpoint URL (e.g. http://127.0.0.1:11434)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new EmbeddingEndpointError(`${endpoint} is not an http(s) endpoint`);
  return url;
}

/**
 * An embedder that posts texts to `<base>/v1/embeddings`. Texts stay on this machine unless the
 * caller allows a remote host (then a warning says they leave); `redact` masks secrets first.
 * Its first call, a fixed probe text, learns the dimension; later answers must keep it.
 */
export async function openEndpointEmbedder(options: EndpointOptions): Promise<Embedder> {
  const base = parseEndpoint(options.endpoint);
  const where = base.origin + base.pathname.replace(/\/+$/, '');
  if (!options.model)
    throw new EmbeddingEndpointError(
      `${where} needs a model name (--model, e.g. nomic-embed-text for Ollama)`,
    );
  const modelName = options.model;
  if (!isLoopbackHost(base.hostname)) {
    if (!options.allowRemote)
      throw new EmbeddingEndpointError(
        `${where} is not on this machine: texts would leave it; pass --allow-remote to send them there`,
      );
    options.onWarning?.(
      `texts will leave this machine: they are sent to ${where}${options.redact ? ' (secrets masked)' : ' (use --redact to mask secrets)'}`,
    );
  }
  const url = `${where.replace(/\/v1$/, '')}/v1/embeddings`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const counts: RedactionCounts = {};
  let dimensions = 0;
  const post = async (
    texts: readonly string[],
    batch: Batch,
    signal?: AbortSignal,
  ): Promise<Float32Array[]> => {
    const input = options.redact ? texts.map((text) => redactText(text, counts)) : [...texts];
    const vectors = await request(url, modelName, input, batch, timeoutMs, signal);
    for (const [i, vector] of vectors.entries()) {
      if (dimensions === 0) dimensions = vector.length;
      if (vector.length !== dimensions)
        throw new EmbeddingEndpointError(
          `${url} answered a ${vector.length}-dimensional vector for ${textName(batch, i)}, where its vectors had ${dimensions} (was the model switched?)`,
        );
    }
    return vectors;
  };
  await post(['dimension probe'], { first: 0, total: 1, probe: true });
  return {
    model: {
      id: `endpoint:${modelName}`,
      dimensions,
      maxTokens: options.maxTokens ?? 512,
      source: `endpoint:${where} model ${modelName}`,
    },
    // An estimate: the endpoint's tokenizer is unknown here (about 4 characters a token).
    countTokens: (text) => Math.ceil(text.length / 4),
    async embed(texts, embedOptions = {}) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += 64)
        for (const vector of await post(
          texts.slice(start, start + 64),
          { first: start, total: texts.length, probe: false },
          embedOptions.signal,
        ))
          out.push(vector);
      return out;
    },
    close: () => Promise.resolve(),
  };
}

/** Where a batch of texts sits in one embed call, to name a text an answer was wrong for. */
interface Batch {
  first: number;
  total: number;
  probe: boolean;
}

function textName(batch: Batch, index: number): string {
  if (batch.probe) return 'the probe text "dimension probe"';
  return `text ${batch.first + index + 1} of ${batch.total}`;
}

/**
 * An answered embedding as a vector, or what is wrong with it: every value must be a number a
 * 32-bit float holds, and not all zero (a zero vector has no direction to rank by).
 */
function toVector(values: readonly unknown[]): Float32Array | string {
  if (values.length === 0) return 'it is empty';
  const vector = new Float32Array(values.length);
  let sum = 0;
  for (const [d, value] of values.entries()) {
    if (typeof value !== 'number')
      return `dimension ${d + 1} is ${JSON.stringify(value).slice(0, 40)}, not a number`;
    const single = Math.fround(value);
    if (!Number.isFinite(single))
      return `dimension ${d + 1} is ${value}, beyond what a 32-bit float holds`;
    vector[d] = single;
    sum += single * single;
  }
  return sum === 0 ? 'all its values are zero' : vector;
}

async function request(
  url: string,
  model: string,
  input: string[],
  batch: Batch,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, input }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    signal?.throwIfAborted();
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    throw new EmbeddingEndpointError(
      timeout.aborted
        ? `${url} did not answer within ${timeoutMs / 1000} s`
        : `${url} is not answering (${cause || (error instanceof Error ? error.message : String(error))})`,
    );
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200);
    throw new EmbeddingEndpointError(
      `${url} answered HTTP ${response.status}${body ? `: ${body}` : ''}`,
    );
  }
  const parsed = answerSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success)
    throw new EmbeddingEndpointError(
      `${url} did not answer an embeddings list ({data: [{embedding, index}]})`,
    );
  const vectors = new Array<Float32Array | undefined>(input.length);
  for (const item of parsed.data.data) {
    const vector = toVector(item.embedding);
    if (typeof vector === 'string')
      throw new EmbeddingEndpointError(
        `${url} answered an unusable vector for ${textName(batch, item.index)} (${vector}): refused`,
      );
    vectors[item.index] = normalize(vector);
  }
  if (parsed.data.data.length !== input.length || vectors.some((vector) => !vector))
    throw new EmbeddingEndpointError(
      `${url} answered ${parsed.data.data.length} vectors for ${input.length} texts`,
    );
  return vectors.filter((vector): vector is Float32Array => vector !== undefined);
}
