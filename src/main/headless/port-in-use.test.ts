import { afterEach, describe, expect, it } from 'vitest';
import { PortInUseError, probePort } from './port-in-use.js';
import { occupiedPort, releasePorts } from '../../../test/support/occupied-port.js';

afterEach(releasePorts);

describe('probePort', () => {
  it('answers for a free port and lets go of it at once', async () => {
    const port = await occupiedPort();
    await releasePorts();
    await probePort('library', '127.0.0.1', port);
    // Still free: the probe did not keep it.
    await expect(occupiedPort(port)).resolves.toBe(port);
  });

  it("refuses a port another program holds, naming it and the server that wanted it", async () => {
    const port = await occupiedPort();
    const refused = await probePort('library', '127.0.0.1', port).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PortInUseError);
    expect(refused).toMatchObject({ code: 'PORT_IN_USE', role: 'library', host: '127.0.0.1', port });
  });

  it('takes port 0 (any free one) as free', async () => {
    await expect(probePort('ui', '127.0.0.1', 0)).resolves.toBeUndefined();
  });
});
