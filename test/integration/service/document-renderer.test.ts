import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../support/test-service.js';
import { makeHeavyPdf, makePdf } from '../../support/media-fixtures.js';
import { DocumentRenderer } from '../../../src/service/previews/document-renderer.js';
import { tempDir } from '../../support/temp-dir.js';

describe('DocumentRenderer', () => {
  let service: TestService;
  let dir: string;
  const renderer = new DocumentRenderer();
  beforeAll(async () => {
    service = await startTestService();
    dir = tempDir('asset-sync-pages-');
  });
  afterAll(async () => {
    await renderer.close();
    await service.dispose();
  });

  it('renders a page on its worker while this thread answers requests', async () => {
    // A page that takes the worker most of a second (10,000 shapes take 40 ms), and a client already
    // connected, so the requests' answers do not race the page on a busy machine.
    const file = join(dir, 'heavy.pdf');
    writeFileSync(file, await makeHeavyPdf(200_000));
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    const events: string[] = [];
    let started!: () => void;
    const onStarted = new Promise<void>((resolve) => (started = resolve));
    const page = renderer.render({ path: file }, 'application/pdf', 512, started).then((rendered) => {
      events.push('page rendered');
      return rendered;
    });
    // Once the worker is on the page, this thread is free: a request to the service is answered, twice.
    await onStarted;
    events.push('rendering');
    for (let request = 0; request < 2; request++) {
      const response = await fetch(`${service.url}/health`);
      expect(response.status).toBe(200);
      events.push('request answered');
    }
    const { width, height, pixels } = await page;
    expect(events).toEqual(['rendering', 'request answered', 'request answered', 'page rendered']);
    expect([width, height]).toEqual([362, 512]);
    expect(pixels.length).toBe(width * height * 3);
  });

  it('renders inline bytes, and rejects what is not a document without losing the worker', async () => {
    const good = await renderer.render({ bytes: await makePdf(1) }, 'application/pdf', 400);
    expect([good.width, good.height]).toEqual([400, 300]);
    // Left half red (makePdf's first page).
    expect([...good.pixels.subarray((150 * 400 + 100) * 3, (150 * 400 + 100) * 3 + 3)]).toEqual([255, 0, 0]);
    await expect(renderer.render({ bytes: Buffer.from('not a pdf at all') }, 'application/pdf', 400)).rejects.toThrow();
    const again = await renderer.render({ bytes: await makePdf(1) }, 'application/pdf', 200);
    expect([again.width, again.height]).toEqual([200, 150]);
  });

  it('fails pages still waiting when it closes, and refuses new ones', async () => {
    const closing = new DocumentRenderer();
    const file = join(dir, 'heavy-2.pdf');
    writeFileSync(file, await makeHeavyPdf());
    const page = expect(closing.render({ path: file }, 'application/pdf', 512)).rejects.toThrow(/closed/);
    await closing.close();
    await page;
    await expect(closing.render({ path: file }, 'application/pdf', 512)).rejects.toThrow(/closed/);
  });
});
