/**
 * `node --import tsx bench/feed-push.ts`: how long a change takes to reach a client that holds the
 * change feed open, measured from the moment the change's request is answered to the moment its
 * `change` event is read on the stream. The service runs in this process on loopback; each change is
 * a rename of one asset (PATCH /assets/:id), which writes one entry to the account's change log.
 */
import { startTestService } from '../test/support/test-service.js';
import { openEventStream } from '../test/support/event-stream.js';
import { uploadNewAsset } from '../test/support/upload-helpers.js';

const SAMPLES = 40;
const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN;

export async function benchFeedPush(): Promise<number[]> {
  const service = await startTestService();
  try {
    const token = await service.token();
    const { assetId } = await uploadNewAsset(service, '/Push/file.txt', Buffer.from('push'));
    const stream = await openEventStream(`${service.url}/change-events`, token);
    try {
      await stream.next();
      const samples: number[] = [];
      for (let index = 0; index < SAMPLES; index++) {
        const answer = await service.api('PATCH', `/assets/${assetId}`, { filename: `file-${String(index)}.txt` });
        if (answer.status !== 200) throw new Error(`PATCH answered ${String(answer.status)}`);
        const answered = performance.now();
        const event = await stream.next();
        if (event.event !== 'change') throw new Error(`expected a change event, got ${event.event}`);
        samples.push(performance.now() - answered);
        // Spread the changes over the old poll's phase, as changes arrive in real life.
        await new Promise((resolve) => setTimeout(resolve, 37));
      }
      return samples;
    } finally {
      stream.close();
    }
  } finally {
    await service.dispose();
  }
}

const samples = await benchFeedPush();
console.log(`change feed push latency over ${String(samples.length)} changes: p50 ${percentile(samples, 50).toFixed(1)} ms, p95 ${percentile(samples, 95).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms`);
