/**
 * The small pages the loopback listener answers the browser with after sign-in ("Signed in", "Sign-in
 * did not complete"), styled like the service's sign-in page (src/service/auth/authorize-page.ts: same
 * palette, card and type, dark mode too) so the flow looks like one thing. Everything shown is escaped;
 * the stylesheet is allowed by its hash, nothing else loads.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

const STYLE = `
:root { color-scheme: light dark; --bg: #f3f4f7; --card: #fff; --text: #1d2230; --muted: #5b6275; --line: #d5d9e2;
  --accent: #3454d1; --danger: #a32020; --ok: #1f7a3d; }
@media (prefers-color-scheme: dark) { :root { --bg: #14161c; --card: #1e2129; --text: #e8eaf0; --muted: #a0a6b5;
  --line: #363b47; --accent: #7b93ff; --danger: #ffb4b4; --ok: #8fd6a5; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px; background: var(--bg);
  color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: 100%; max-width: 400px; background: var(--card); border: 1px solid var(--line); border-radius: 12px;
  padding: 32px; box-shadow: 0 8px 24px rgb(0 0 0 / 8%); }
.brand { font-weight: 700; letter-spacing: .02em; color: var(--accent); margin: 0 0 20px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; }
h1.ok { color: var(--ok); }
h1.failed { color: var(--danger); }
p { margin: 0 0 16px; color: var(--muted); }
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

export type CallbackTone = 'ok' | 'failed' | 'neutral';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function callbackPageHtml(title: string, text: string, tone: CallbackTone): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Asset Sync</p>
<h1${tone === 'neutral' ? '' : ` class="${tone}"`}>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
</main>
</body>
</html>
`;
}

export function sendCallbackPage(response: ServerResponse, status: number, title: string, text: string, tone: CallbackTone = 'neutral'): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; frame-ancestors 'none'; base-uri 'none'`,
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  response.end(callbackPageHtml(title, text, tone));
}
