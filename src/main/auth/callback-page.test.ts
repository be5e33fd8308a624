import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callbackPageHtml } from './callback-page.js';

describe('the pages after sign-in', () => {
  it('look like the sign-in page, dark mode too, and escape what they show', () => {
    const html = callbackPageHtml('Sign-in did not complete', '<script>x</script> & more', 'failed');
    expect(html).toContain('<p class="brand">Asset Sync</p>');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('<h1 class="failed">Sign-in did not complete</h1>');
    expect(html).toContain('&#60;script&#62;x&#60;/script&#62; &#38; more');
    expect(html).not.toContain('<script>');
  });

  it('carry exactly the stylesheet their policy allows', () => {
    const style = /<style>([\s\S]*)<\/style>/.exec(callbackPageHtml('Signed in', 'ok', 'ok'))?.[1] ?? '';
    expect(style).toContain('--bg: #14161c');
    expect(createHash('sha256').update(style).digest('base64')).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });
});
