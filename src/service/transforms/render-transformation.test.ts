import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { md5Of } from './render-transformation.js';
import { md5Hex } from '../../../test/support/checksums.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('md5Of, the checksum of a rendition read back in buffers of its size', () => {
  let dir: string | undefined;
  afterEach(() => {
    dir = undefined;
  });

  it.each([0, 1, 200_000, (1 << 20) + 7, 3 * (1 << 20)])('hashes all %i bytes of the file', async (size) => {
    dir = tempDir('md5of-');
    const bytes = randomBytes(size);
    const path = join(dir, 'rendition.jpg');
    writeFileSync(path, bytes);
    expect(await md5Of(path, size)).toBe(md5Hex(bytes));
  });
});
