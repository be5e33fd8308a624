import { describe, expect, it } from 'vitest';
import { findOverlap, overlapMessage, pathRelation, serviceRelation, type FolderPlace } from './folder-overlap.js';

const place = (path: string, remotePath: string, extra: Partial<FolderPlace> = {}): FolderPlace => ({ path, realPath: path, remotePath, ...extra });
const defaultFolder = place('/home/ana/Asset Sync', '/');

describe('pathRelation', () => {
  it.each([
    ['/home/ana/Design', '/home/ana/Design', 'same'],
    ['/home/ana/Design/', '/home/ana/Design', 'same'],
    ['/home/ana/Design/Logos', '/home/ana/Design', 'inside'],
    ['/home/ana', '/home/ana/Design', 'contains'],
    ['/home/ana/Designs', '/home/ana/Design', undefined],
    ['/home/ana/Design', '/home/ana/Designs', undefined],
    ['/home/ana/Design', '/home/ana/Photos', undefined],
    ['/', '/home', 'contains'],
  ] as const)('%s against %s: %s', (candidate, other, relation) => {
    expect(pathRelation(candidate, other, '/')).toBe(relation);
  });

  it('splits Windows paths at their separator', () => {
    expect(pathRelation('C:\\Users\\ana\\Design\\Logos', 'C:\\Users\\ana\\Design', '\\')).toBe('inside');
    expect(pathRelation('C:\\Users\\ana\\Designs', 'C:\\Users\\ana\\Design', '\\')).toBeUndefined();
  });
});

describe('serviceRelation', () => {
  it.each([
    ['/Design', '/Design', 'same'],
    ['/Design', '/', 'inside'],
    ['/', '/Design', 'contains'],
    ['/', '/', 'same'],
    ['/Design/Logos', '/Design', 'inside'],
    ['/Brand', '/Brand/Logos', 'contains'],
    ['/Designs', '/Design', undefined],
    ['/Design', '/Designs', undefined],
    ['/design', '/Design', undefined],
    ['/Cafe\u0301', '/Caf\u00e9', 'same'],
  ] as const)('%s against %s: %s', (candidate, other, relation) => {
    expect(serviceRelation(candidate, other)).toBe(relation);
  });
});

describe('findOverlap', () => {
  it('refuses ~/Design → /Design beside the default folder, which syncs the whole service', () => {
    const candidate = place('/home/ana/Design', '/Design');
    const overlap = findOverlap(candidate, [defaultFolder], { separator: '/' });
    expect(overlap).toEqual({ side: 'service', relation: 'inside', other: defaultFolder });
    expect(overlapMessage(candidate, overlap ?? expect.fail())).toBe(
      '/Design in the service is already synced by /home/ana/Asset Sync, which syncs the whole service (/): its files are in /home/ana/Asset Sync/Design. ' +
        'Use that folder, or first narrow /home/ana/Asset Sync to a folder in the service that does not hold /Design.',
    );
  });

  it('lets folders apart on disk and in the service be, though their names share a prefix', () => {
    const design = place('/home/ana/Design', '/Design');
    expect(findOverlap(place('/home/ana/Designs', '/Designs'), [design], { separator: '/' })).toBeUndefined();
  });

  it('refuses a local folder inside, around or the same as a synced one (real paths compared)', () => {
    const design = place('/home/ana/Design', '/Design');
    const inside = place('/home/ana/Design/Logos', '/Logos');
    expect(findOverlap(inside, [design], { separator: '/' })).toMatchObject({ side: 'disk', relation: 'inside' });
    expect(overlapMessage(inside, { side: 'disk', relation: 'inside', other: design })).toContain('/home/ana/Design/Logos is inside /home/ana/Design, which is already synced with /Design');
    expect(findOverlap(place('/home/ana', '/Home'), [design], { separator: '/' })).toMatchObject({ side: 'disk', relation: 'contains' });
    const linked = place('/home/ana/link-to-design', '/Other', { realPath: '/home/ana/Design' });
    expect(findOverlap(linked, [design], { separator: '/' })).toMatchObject({ side: 'disk', relation: 'same' });
  });

  it('folds case where a disk folds it, and only there', () => {
    const design = place('/Users/ana/Design', '/Design', { foldsCase: true });
    expect(findOverlap(place('/Users/ana/design/Logos', '/Logos'), [design], { separator: '/' })).toMatchObject({ side: 'disk', relation: 'inside' });
    expect(findOverlap(place('/home/ana/design/Logos', '/Logos'), [place('/home/ana/Design', '/Design')], { separator: '/' })).toBeUndefined();
  });

  it('refuses the whole service beside any synced folder, and says what it holds', () => {
    const design = place('/home/ana/Design', '/Design');
    const everything = place('/home/ana/Asset Sync', '/');
    const overlap = findOverlap(everything, [design], { separator: '/' });
    expect(overlap).toMatchObject({ side: 'service', relation: 'contains' });
    expect(overlapMessage(everything, overlap ?? expect.fail())).toBe(
      'The whole service (/) holds /Design, which /home/ana/Design already syncs. Choose a folder in the service that does not hold /Design, or first stop syncing /home/ana/Design.',
    );
  });

  it('checks only the disk when a known folder moves on disk', () => {
    const design = place('/home/ana/Design', '/Design');
    expect(findOverlap(place('/home/ana/Photos', '/Design/Photos'), [design], { separator: '/', check: 'disk' })).toBeUndefined();
    expect(findOverlap(place('/home/ana/Design/Photos', '/Photos'), [design], { separator: '/', check: 'disk' })).toMatchObject({ side: 'disk', relation: 'inside' });
  });

  it('checks only the service when a known folder changes its place there', () => {
    const design = place('/home/ana/Design', '/Design');
    const logos = place('/home/ana/Design/Logos', '/Logos');
    expect(findOverlap(logos, [design], { separator: '/', check: 'service' })).toBeUndefined();
    expect(findOverlap(place('/home/ana/Photos', '/Design/Photos'), [design], { separator: '/', check: 'service' })).toMatchObject({ side: 'service', relation: 'inside' });
  });
});
