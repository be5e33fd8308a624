/**
 * The client side shared by the baseline and the service runs: PUT byte ranges of a file with bounded
 * concurrency over one keep-alive agent, streaming from disk (never whole parts in memory).
 *
 * Each PUT reuses two 1 MiB buffers (one being read while the other is on its way) instead of a read
 * stream's fresh buffer per read: on a 2-CPU machine the servers compete with this client for CPU, and
 * a client spending ~0.5 s/GiB collecting garbage would tax whichever server needs more CPU.
 */
import { Agent, request, type ClientRequest } from 'node:http';
import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;

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
    sendRange(outgoing, file, part.start, part.end).catch((error: unknown) => {
      outgoing.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

async function sendRange(outgoing: ClientRequest, file: string, start: number, end: number): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
    let sending: Promise<void> = Promise.resolve();
    for (let position = start, turn = 0; position < end; turn ^= 1) {
      // This buffer's previous write finished before the other buffer's write started (awaited below).
      const buffer = buffers[turn]!;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, end - position), position);
      if (bytesRead === 0) throw new Error(`${file} ended at ${position}`);
      position += bytesRead;
      await sending;
      sending = new Promise((resolve, reject) => {
        outgoing.write(buffer.subarray(0, bytesRead), (error) => {
          if (error) reject(error);
          else resolve();
        });
      });
    }
    await sending;
    outgoing.end();
  } finally {
    await handle.close();
  }
}
