import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testModelDir } from '../../test/support/embedding-model.js';
import { EmbeddingEndpointError } from './embed-errors.js';
import type { Embedder } from './embedder.js';
import { isLoopbackHost } from './endpoint-embedder.js';
import { openEmbedder } from './open-embedder.js';

/**
 * A real embedding service on a loopback port, OpenAI-shaped, answering with vectors from the
 * real local model; `mode` makes it misbehave the ways a real service can.
 */
class EmbeddingService {
  mode: 'ok' | 'bad-shape' | 'wider' | 'error' | 'slow' | Degenerate = 'ok';
  received: string[][] = [];
  private server!: Server;
  constructor(private readonly model: Embedder) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        void this.answer(request.url ?? '', body).then(([status, json]) => {
          if (this.mode === 'slow') return; // never answers
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(json));
        });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async answer(url: string, body: string): Promise<[number, unknown]> {
    if (url !== '/v1/embeddings') return [404, { error: 'not found' }];
    const { input } = JSON.parse(body) as { input: string[] };
    this.received.push(input);
    if (this.mode === 'error') return [500, { error: 'model not loaded' }];
    if (this.mode === 'bad-shape') return [200, { embeddings: [[1, 2]] }];
    const vectors = await this.model.embed(input);
    // The wire carries unnormalised numbers sometimes: scale them to show they get normalised.
    const data = vectors.map((vector, index) => ({
      index,
      embedding: [...vector].map((value) => value * 3).concat(this.mode === 'wider' ? [0.5] : []),
    }));
    // The last text of the batch gets the degenerate vector, as a faulty service answers.
    const last = data.at(-1)?.embedding;
    if (last && this.mode === 'zeros') last.fill(0);
    if (last && this.mode === 'huge') last[7] = 1e308;
    if (last && this.mode === 'nan') last[7] = NaN; // JSON carries it as null
    if (last && this.mode === 'shorter') last.pop();
    if (last && this.mode === 'empty') last.length = 0;
    return [200, { object: 'list', data: data.reverse() }];
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }
}

type Degenerate = 'zeros' | 'huge' | 'nan' | 'shorter' | 'empty';

const cosine = (a: Float32Array, b: Float32Array): number =>
  a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

describe('the endpoint embedder against a real local embedding service', () => {
  let local: Embedder;
  let service: EmbeddingService;
  let base: string;
  beforeAll(async () => {
    local = await openEmbedder({ modelDir: testModelDir() });
    service = new EmbeddingService(local);
    base = await service.start();
  });
  afterAll(async () => {
    await service.stop();
    await local.close();
  });

  it('embeds through POST /v1/embeddings, in order, as unit vectors', async () => {
    service.mode = 'ok';
    const remote = await openEmbedder({ endpoint: base, model: 'minilm' });
    expect(remote.model).toEqual({
      id: 'endpoint:minilm',
      dimensions: 384,
      maxTokens: 512,
      source: `endpoint:${base} model minilm`,
    });
    const texts = ['feeding a levain', 'draining nodes in k8s'];
    const viaEndpoint = await remote.embed(texts);
    const direct = await local.embed(texts);
    for (const [i, vector] of viaEndpoint.entries()) {
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
      expect(cosine(vector, direct[i] ?? new Float32Array())).toBeGreaterThan(0.9999);
    }
    expect(remote.countTokens('twelve chars')).toBe(3);
    await remote.close();
  });

  it('masks secrets before sending when asked', async () => {
    service.mode = 'ok';
    service.received = [];
    const remote = await openEmbedder({ endpoint: base, model: 'minilm', redact: true });
    await remote.embed(['my key is sk-proj-abcdefghijklmnopqrstuvwxyz123456']);
    expect(service.received.at(-1)).toEqual(['my key is [REDACTED:openai-key]']);
  });

  it('refuses a host that is not this machine unless allowed, then warns', async () => {
    await expect(openEmbedder({ endpoint: 'http://192.0.2.7:11434', model: 'm' })).rejects.toThrow(
      new EmbeddingEndpointError(
        'http://192.0.2.7:11434 is not on this machine: texts would leave it; pass --allow-remote to send them there',
      ),
    );
    // Allowed, a remote host gets the warning first (this one does not exist: the error follows).
    const warnings: string[] = [];
    await expect(
      openEmbedder({
        endpoint: 'http://host.invalid:11434',
        model: 'm',
        allowRemote: true,
        onWarning: (message) => {
          warnings.push(message);
        },
      }),
    ).rejects.toThrow(/^http:\/\/host\.invalid:11434\/v1\/embeddings is not answering/);
    expect(warnings).toEqual([
      'texts will leave this machine: they are sent to http://host.invalid:11434 (use --redact to mask secrets)',
    ]);
    expect(
      ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'a.localhost'].map(isLoopbackHost),
    ).toEqual([true, true, true, true, true]);
    expect(['192.168.1.2', 'example.com', '128.0.0.1'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('says in one line when the endpoint is down, fails, times out or answers the wrong shape', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const down = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    await expect(openEmbedder({ endpoint: down, model: 'm' })).rejects.toThrow(
      new EmbeddingEndpointError(
        `${down}/v1/embeddings is not answering (connect ECONNREFUSED ${down.slice(7)})`,
      ),
    );
    service.mode = 'error';
    await expect(openEmbedder({ endpoint: base, model: 'm' })).rejects.toThrow(
      `${base}/v1/embeddings answered HTTP 500: {"error":"model not loaded"}`,
    );
    service.mode = 'bad-shape';
    await expect(openEmbedder({ endpoint: base, model: 'm' })).rejects.toThrow(
      `${base}/v1/embeddings did not answer an embeddings list ({data: [{embedding, index}]})`,
    );
    service.mode = 'ok';
    const remote = await openEmbedder({ endpoint: base, model: 'm' });
    service.mode = 'wider';
    await expect(remote.embed(['x'])).rejects.toThrow(
      `${base}/v1/embeddings answered a 385-dimensional vector for text 1 of 1, where its vectors had 384 (was the model switched?)`,
    );
    await expect(openEmbedder({ endpoint: base })).rejects.toThrow(
      `${base} needs a model name (--model, e.g. nomic-embed-text for Ollama)`,
    );
  });

  it('refuses degenerate vectors, naming the text and what was wrong', async () => {
    service.mode = 'ok';
    const remote = await openEmbedder({ endpoint: base, model: 'm' });
    const texts = Array.from({ length: 70 }, (_, i) => `text number ${i}`);
    const cases: [Degenerate, string][] = [
      ['zeros', 'all its values are zero'],
      ['huge', 'dimension 8 is 1e+308, beyond what a 32-bit float holds'],
      ['nan', 'dimension 8 is null, not a number'],
      ['empty', 'it is empty'],
    ];
    for (const [mode, why] of cases) {
      service.mode = mode;
      // Sent 64 at a time: the first batch's last text is the one answered wrongly.
      await expect(remote.embed(texts)).rejects.toThrow(
        new EmbeddingEndpointError(
          `${base}/v1/embeddings answered an unusable vector for text 64 of 70 (${why}): refused`,
        ),
      );
    }
    service.mode = 'shorter';
    await expect(remote.embed(['a', 'b'])).rejects.toThrow(
      `${base}/v1/embeddings answered a 383-dimensional vector for text 2 of 2, where its vectors had 384 (was the model switched?)`,
    );
    service.mode = 'zeros';
    await expect(openEmbedder({ endpoint: base, model: 'm' })).rejects.toThrow(
      `${base}/v1/embeddings answered an unusable vector for the probe text "dimension probe" (all its values are zero): refused`,
    );
    service.mode = 'ok';
    await remote.close();
  });

  it('gives up on an endpoint that never answers', async () => {
    service.mode = 'slow';
    const { openEndpointEmbedder } = await import('./endpoint-embedder.js');
    await expect(
      openEndpointEmbedder({
        endpoint: base,
        model: 'm',
        allowRemote: false,
        redact: false,
        timeoutMs: 300,
      }),
    ).rejects.toThrow(`${base}/v1/embeddings did not answer within 0.3 s`);
    service.mode = 'ok';
  });
});
