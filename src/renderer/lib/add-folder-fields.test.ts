import { describe, expect, it } from 'vitest';
import { examplePath, refusedField } from './add-folder-fields.js';

describe('the add-folder form', () => {
  it('suggests a path the way this computer writes them, beside the folders already synced', () => {
    expect(examplePath('linux', [])).toBe('/home/you/Design');
    expect(examplePath('darwin', [])).toBe('/Users/you/Design');
    expect(examplePath('win32', [])).toBe('C:\\Users\\you\\Design');
    expect(examplePath('linux', [{ path: '/home/dana/Asset Sync' }])).toBe('/home/dana/Design');
    expect(examplePath('win32', [{ path: 'D:\\Work\\Asset Sync' }])).toBe('D:\\Work\\Design');
  });

  it('marks the field a refusal is about', () => {
    expect(refusedField('INVALID_NAME')).toBe('remote');
    expect(refusedField('FOLDERS_OVERLAP')).toBe('both');
    expect(refusedField('ROOT_IN_USE')).toBe('path');
  });
});
