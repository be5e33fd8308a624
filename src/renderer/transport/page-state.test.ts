import { describe, expect, it } from 'vitest';
import { INITIAL_STATE_ID, initialStateBlock } from '../../shared/bridge/initial-state.js';
import { appState } from '../../../test/support/app-state-builder.js';
import { pageState, type PageElements } from './page-state.js';

/** A page holding `html`'s data block, as the browser parses it: the text between the tags. */
function pageWith(html: string | undefined): PageElements {
  const block = html === undefined ? null : /<script type="application\/json" id="([^"]+)">(.*)<\/script>$/s.exec(html);
  return { getElementById: (id) => (block !== null && block[1] === id ? { textContent: block[2] ?? null } : null) };
}

/** A page whose data block holds `text`. */
const holding = (text: string): PageElements => ({ getElementById: () => ({ textContent: text }) });

describe('the state the page came with', () => {
  it('is the state the server wrote, a file name that closes the script included', () => {
    const state = appState({ revision: 4 });
    const named = { ...state, problems: [{ name: 'AppError', code: 'X', message: 'a file named </script><script>alert(1)</script> <!--' }] };
    const block = initialStateBlock(named);
    expect(block.indexOf('</script>')).toBe(block.length - '</script>'.length);
    expect(block).not.toContain('<!--');
    expect(block).toContain(`id="${INITIAL_STATE_ID}"`);
    expect(pageState(pageWith(block))).toEqual(named);
  });

  it('is nothing where the page has none, or what it has is not a state', () => {
    expect(pageState(pageWith(undefined))).toBeUndefined();
    expect(pageState(holding('not json'))).toBeUndefined();
    expect(pageState(holding('{"folders":[]}'))).toBeUndefined();
    expect(pageState(holding(''))).toBeUndefined();
  });
});
