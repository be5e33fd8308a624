/**
 * The client side shared by the baseline and the service runs: PUT byte ranges of a file with bounded
 * concurrency over one keep-alive agent, streaming from disk (never whole parts in memory).
 */
import { Agent, request } from 'node:http';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

export interface PartToSend {
  partNumber: number;
  url: string;
  start: number;
  end: number;
}

export async function putParts(file: string, parts: PartToSend[], concurrency: number): Promise<Map<number, string>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const etags = new Map<number, string>();
  const queue = [...parts];
  const worker = async (): Promise<void> => {
    for (let part = queue.shift(); part !== undefined; part = queue.shift()) {
      etags.set(part.partNumber, await putOne(agent, file, part));
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return etags;
}

function putOne(agent: Agent, file: string, part: PartToSend): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request(part.url, { method: 'PUT', agent, headers: { 'content-length': part.end - part.start, 'content-type': 'application/octet-stream' } }, (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`part ${part.partNumber}: HTTP ${response.statusCode}`));
        else resolve(response.headers.etag ?? '');
      });
    });
    outgoing.on('error', reject);
    if (part.end === part.start) {
      outgoing.end();
      return;
    }
    pipeline(createReadStream(file, { start: part.start, end: part.end - 1, highWaterMark: 1 << 20 }), outgoing).catch(reject);
  });
}
