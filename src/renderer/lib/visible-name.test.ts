import { describe, expect, it } from 'vitest';
import { visibleName } from './visible-name.js';

describe('visible name', () => {
  it('marks each space at the start or end of a name, and says where they are', () => {
    expect(visibleName('logo.png ')).toEqual({ text: 'logo.png␣', hint: 'ends with a space' });
    expect(visibleName('  Old drafts')).toEqual({ text: '␣␣Old drafts', hint: 'starts with a space' });
    expect(visibleName(' brief.pdf\t')).toEqual({ text: '␣brief.pdf␣', hint: 'starts and ends with a space' });
  });

  it('leaves a name without edge spaces, and the spaces inside a name, as they are', () => {
    expect(visibleName('logo final.png')).toEqual({ text: 'logo final.png', hint: null });
    expect(visibleName('')).toEqual({ text: '', hint: null });
  });

  it('shows a name of only spaces as marks', () => {
    expect(visibleName('  ')).toEqual({ text: '␣␣', hint: 'only spaces' });
  });
});
