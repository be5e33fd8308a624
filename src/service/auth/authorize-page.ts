/**
 * The HTML of the authorisation server: the sign-in form and the error page. Self-contained pages (inline
 * CSS, no script, no external asset) under a strict Content-Security-Policy that allows exactly the one
 * stylesheet (by hash) and form posts to us and to the client's redirect origin (browsers apply
 * `form-action` to the redirect that follows the post). Every dynamic value is HTML-escaped here; this
 * module must never emit one unescaped, nor load anything from elsewhere.
 */
import { createHash } from 'node:crypto';

export interface HtmlPage {
  status: number;
  headers: Record<string, string>;
  html: string;
}

export interface SignInPageModel {
  /** Absolute URL the form posts to. */
  action: string;
  /** The sealed authorisation request (hidden field). */
  transaction: string;
  clientName: string;
  accountName: string;
  accountSubdomain: string;
  offlineAccess: boolean;
  /** Origins the post may end up at: us, and the client's redirect URI. */
  formTargets: readonly string[];
  email?: string | undefined;
  /** Why the previous attempt failed, shown above the form. */
  problem?: string | undefined;
}

const STYLE = `
:root { color-scheme: light dark; --bg: #f3f4f7; --card: #fff; --text: #1d2230; --muted: #5b6275; --line: #d5d9e2;
  --accent: #3454d1; --accent-text: #fff; --danger-bg: #fdecec; --danger: #a32020; }
@media (prefers-color-scheme: dark) { :root { --bg: #14161c; --card: #1e2129; --text: #e8eaf0; --muted: #a0a6b5;
  --line: #363b47; --accent: #7b93ff; --accent-text: #10131a; --danger-bg: #3a1d1f; --danger: #ffb4b4; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px; background: var(--bg);
  color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: 100%; max-width: 400px; background: var(--card); border: 1px solid var(--line); border-radius: 12px;
  padding: 32px; box-shadow: 0 8px 24px rgb(0 0 0 / 8%); }
.brand { font-weight: 700; letter-spacing: .02em; color: var(--accent); margin: 0 0 20px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; }
p { margin: 0 0 16px; color: var(--muted); }
strong { color: var(--text); }
.alert { padding: 10px 12px; border-radius: 8px; background: var(--danger-bg); color: var(--danger); }
label { display: block; font-weight: 600; margin: 16px 0 6px; }
input { width: 100%; padding: 10px 12px; font: inherit; color: var(--text); background: transparent;
  border: 1px solid var(--line); border-radius: 8px; }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
button { width: 100%; margin-top: 24px; padding: 11px; font: inherit; font-weight: 600; border-radius: 8px;
  border: 1px solid var(--accent); background: var(--accent); color: var(--accent-text); cursor: pointer; }
button.secondary { margin-top: 10px; background: transparent; color: var(--text); border-color: var(--line); }
.grants { margin: 20px 0 0; font-size: .875rem; }
code { font-size: .875rem; }
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

export function signInPage(model: SignInPageModel, status = 200): HtmlPage {
  const focusPassword = model.email !== undefined && model.email !== '';
  const grants = model.offlineAccess
    ? 'It will act as you in this account, and can keep doing so later without asking you again (offline access).'
    : 'It will act as you in this account until its access expires.';
  const body = `
<p class="brand">Asset Sync</p>
<h1>Sign in</h1>
<p><strong>${escapeHtml(model.clientName)}</strong> asks to access the account <strong>${escapeHtml(model.accountName)}</strong>
(<code>${escapeHtml(model.accountSubdomain)}</code>).</p>
${model.problem === undefined ? '' : `<p class="alert" role="alert">${escapeHtml(model.problem)}</p>`}
<form method="post" action="${escapeHtml(model.action)}">
  <input type="hidden" name="transaction" value="${escapeHtml(model.transaction)}">
  <label for="email">Email address</label>
  <input id="email" name="email" type="email" autocomplete="username" required${focusPassword ? '' : ' autofocus'} value="${escapeHtml(model.email ?? '')}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required${focusPassword ? ' autofocus' : ''}>
  <button type="submit" name="decision" value="allow">Sign in and allow</button>
  <button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Cancel</button>
</form>
<p class="grants">${grants}</p>`;
  return page(status, 'Sign in · Asset Sync', body, model.formTargets);
}

/** Shown instead of redirecting when the client or redirect URI cannot be trusted, or the form is stale. */
export function errorPage(status: number, code: string, message: string): HtmlPage {
  const body = `
<p class="brand">Asset Sync</p>
<h1>Sign-in cannot continue</h1>
<p class="alert" role="alert">${escapeHtml(message)}</p>
<p>Go back to the application and start again. If this keeps happening, tell its developer the code
<code>${escapeHtml(code)}</code>.</p>`;
  return page(status, 'Sign-in error · Asset Sync', body, []);
}

/** The CSP source that covers a URI: its origin, or its scheme for a custom-scheme (native app) URI. */
export function cspSourceOf(uri: string): string | undefined {
  if (!URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

function page(status: number, title: string, body: string, formTargets: readonly string[]): HtmlPage {
  const formAction = formTargets.length === 0 ? "'none'" : [...new Set(formTargets)].join(' ');
  const csp = `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>${body}
</main>
</body>
</html>
`;
  return {
    status,
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      // The page's URL carries the authorisation request; the redirect after it carries the code.
      'referrer-policy': 'no-referrer',
    },
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
