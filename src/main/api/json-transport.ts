/**
 * The JSON API's requests with Node's own client (http-exchange.ts), the default JsonTransport. got,
 * which carried them before, spent 0.2–0.4 ms of CPU per request on option handling and its hooks
 * (about 0.1 ms bare): on the transform bench's download job, where every rendition is seen through a
 * poll, got's own frames were ~2 ms of main-thread CPU per image beside the job's renders.
 * What got did for us is kept: the keep-alive (and proxy) agents, the three timeouts failing the way
 * transportError reads, no redirects followed, the answer as text whatever its status.
 */
import type { IncomingMessage } from 'node:http';
import type { ClientContext, JsonTransport } from './api-client.js';
import { exchange } from './http-exchange.js';

/** The whole body as text; a connection lost mid-body rejects with its error (transportError reads it). */
async function readAll(stream: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return chunks.length === 1 && chunks[0] !== undefined ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

export function nodeJsonTransport(context: ClientContext): JsonTransport {
  return async ({ method, url, headers, body, signal }) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
    const opened = await exchange(context, {
      method,
      url,
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length) },
      ...(payload === undefined ? {} : { body: payload }),
      responseMs: context.timeouts.responseMs,
      signal,
    });
    return { statusCode: opened.status, headers: opened.headers, body: await readAll(opened.stream) };
  };
}
