import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest message read (the SDK's own stdio limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * MCP over stdio, one JSON-RPC message a line, that survives bad input: a line that is not
 * JSON gets a parse error (-32700), one that is not a JSON-RPC message an invalid-request error
 * (-32600), and one over {@link MAX_MESSAGE_BYTES} is skipped to its end with an error, where
 * the SDK's transport closed and the server exited with code 0 without a word.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let rest = chunk;
    for (;;) {
      const end = rest.indexOf(10);
      if (end === -1) {
        this.hold(rest);
        return;
      }
      this.hold(rest.subarray(0, end));
      if (!this.skipping) this.line(Buffer.concat(this.chunks).toString('utf8'));
      this.chunks = [];
      this.size = 0;
      this.skipping = false;
      rest = rest.subarray(end + 1);
    }
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.chunks = [];
    this.onclose?.();
    return Promise.resolve();
  }

  // Part of a line: kept, unless the line is already too long (then it is dropped to its end).
  private hold(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.chunks = [];
      this.skipping = true;
      this.refuse(
        INVALID_REQUEST,
        `the message is larger than ${String(this.maxBytes / 1024 / 1024)} MB and was not read`,
      );
      return;
    }
    this.chunks.push(part);
  }

  private line(text: string): void {
    const line = text.replace(/\r$/, '');
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(PARSE_ERROR, 'Parse error: the line is not JSON');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      this.refuse(
        INVALID_REQUEST,
        'Invalid Request: the line is not a JSON-RPC 2.0 message',
        idOf(value),
      );
      return;
    }
    this.onmessage?.(message.data);
  }

  private refuse(code: number, message: string, id: string | number | null = null): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage);
  }
}

// The id of a request that is not valid otherwise, so the client can match the error to it.
function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object' || !('id' in value)) return null;
  const id = value.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
