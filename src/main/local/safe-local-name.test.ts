import { describe, expect, it } from 'vitest';
import { nameProblem } from '../../shared/api/remote-path.js';
import { safeLocalName } from './safe-local-name.js';

const long = (stem: string, times: number, extension = ''): string => `${stem.repeat(times)}${extension}`;
const bytes = (name: string): number => Buffer.byteLength(name);

describe('safeLocalName', () => {
  it.each([
    ['logo.png', 'logo.png', 'logo.png'],
    ['a/b.png', 'a_b.png', 'a_b.png'],
    ['tab\there', 'tab_here', 'tab_here'],
    ['nul\0byte', 'nul_byte', 'nul_byte'],
    ['.', '_', '_'],
    ['..', '__', '__'],
    ['', '_', '_'],
    ['...', '...', '___'],
    ['.hidden', '.hidden', '.hidden'],
    ['CON', 'CON', 'CON_'],
    ['con.txt', 'con.txt', 'con_.txt'],
    ['Nul.tar.gz', 'Nul.tar.gz', 'Nul_.tar.gz'],
    ['COM1.png', 'COM1.png', 'COM1_.png'],
    ['lpt9', 'lpt9', 'lpt9_'],
    ['CONSOLE.txt', 'CONSOLE.txt', 'CONSOLE.txt'],
    ['name.', 'name.', 'name_'],
    ['name. .', 'name. .', 'name___'],
    ['a<b>c:d"e\\f|g?h*i.png', 'a<b>c:d"e\\f|g?h*i.png', 'a_b_c_d_e_f_g_h_i.png'],
    ['Re\u0301sume\u0301.pdf', 'R\u00e9sum\u00e9.pdf', 'R\u00e9sum\u00e9.pdf'],
    ['🎨 palette #1 100%.svg', '🎨 palette #1 100%.svg', '🎨 palette #1 100%.svg'],
  ])('%j → %j on POSIX, %j on Windows', (remote, posix, windows) => {
    expect(safeLocalName(remote, 'linux')).toBe(posix);
    expect(safeLocalName(remote, 'win32')).toBe(windows);
  });

  it('shortens names over 255 UTF-8 bytes, keeping the extension and whole characters, without collisions', () => {
    const a = safeLocalName(long('é', 200, '.png'), 'linux');
    const b = safeLocalName(long('é', 201, '.png'), 'linux');
    expect(bytes(a)).toBeLessThanOrEqual(255);
    expect(a).toMatch(/^é+~[0-9a-f]{8}\.png$/);
    expect(a).not.toBe(b);
    const emoji = safeLocalName(long('👩‍🎨', 30, '.jpeg'), 'linux'); // 11-byte grapheme clusters
    expect(bytes(emoji)).toBeLessThanOrEqual(255);
    expect(emoji.replace(/~[0-9a-f]{8}\.jpeg$/, '')).toBe('👩‍🎨'.repeat(21));
    const noExtension = safeLocalName(long('x', 300), 'linux');
    expect(noExtension).toMatch(/^x{246}~[0-9a-f]{8}$/);
    const hugeExtension = safeLocalName(`name.${'e'.repeat(300)}`, 'linux');
    expect(bytes(hugeExtension)).toBeLessThanOrEqual(255);
  });

  it('is deterministic, idempotent, and the identity on every name the service accepts that POSIX can hold', () => {
    const names = ['logo.png', ' x', long('é', 127, '.a'), long('é', 200, '.png'), 'CON.txt', 'a:b', 'name.', '...', '\u00e9'.normalize('NFD')];
    for (const name of names) {
      for (const platform of ['linux', 'darwin', 'win32'] as const) {
        const once = safeLocalName(name, platform);
        expect(safeLocalName(name, platform)).toBe(once);
        expect(safeLocalName(once, platform)).toBe(once);
        expect(nameProblem(once) === undefined || once === ' x').toBe(true);
      }
      if (nameProblem(name) === undefined && name === name.normalize('NFC')) expect(safeLocalName(name, 'linux')).toBe(name);
    }
  });
});
