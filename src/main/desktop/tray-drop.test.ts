import { describe, expect, it } from 'vitest';
import { trayDrop } from './tray-drop.js';

const folders = [
  { id: 'root-brand', path: '/home/ann/Brand' },
  { id: 'root-default', path: '/home/ann/Asset Sync' },
];

describe('files dropped on the tray icon', () => {
  it('go into the default folder, found by its path, even when it is not listed first', () => {
    expect(trayDrop(folders, '/home/ann/Asset Sync/', ['/tmp/a.png', '/tmp/b.psd'])).toEqual({ kind: 'copy', folderId: 'root-default', paths: ['/tmp/a.png', '/tmp/b.psd'] });
  });

  it('go into the first folder when the default one is not synced', () => {
    expect(trayDrop(folders, '/home/ann/Elsewhere', ['/tmp/a.png'])).toEqual({ kind: 'copy', folderId: 'root-brand', paths: ['/tmp/a.png'] });
  });

  it('are not copied anywhere without a folder, and the user hears why; an empty drop does nothing', () => {
    expect(trayDrop([], '/home/ann/Asset Sync', ['/tmp/a.png'])).toMatchObject({ kind: 'no-folder', message: expect.stringContaining('No folder is synced yet') });
    expect(trayDrop(folders, '/home/ann/Asset Sync', [])).toEqual({ kind: 'nothing' });
  });
});
