/**
 * A stand-in for the system browser in sign-in tests: given the /authorize URL that `login()` opens,
 * it loads the sign-in form, posts the credentials with the form's hidden fields and cookie, and
 * follows the redirect to the app's loopback listener, keeping what each step answered.
 */
import { ADMIN_PASSWORD } from './test-service.js';

export interface BrowserVisit {
  formStatus?: number;
  /** Where the authorisation server sent the browser after the form. */
  redirectedTo?: URL;
  callbackStatus?: number;
  callbackPage?: string;
}

export interface FakeBrowser {
  visits: BrowserVisit[];
  openUrl: (url: string) => Promise<void>;
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&').replace(/&quot;/g, '"');
}

/** Every `<input type="hidden" name=… value=…>` of a page. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input\b[^>]*>/g)) {
    const tag = match[0];
    if (!/type="hidden"/.test(tag)) continue;
    const name = /name="([^"]*)"/.exec(tag)?.[1];
    if (name !== undefined) fields[unescapeHtml(name)] = unescapeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? '');
  }
  return fields;
}

export function fakeBrowser(credentials: { email: string; password?: string; decision?: 'allow' | 'deny' }): FakeBrowser {
  const visits: BrowserVisit[] = [];
  return {
    visits,
    async openUrl(url) {
      const visit: BrowserVisit = {};
      visits.push(visit);
      const form = await fetch(url, { redirect: 'manual' });
      visit.formStatus = form.status;
      const html = await form.text();
      const action = unescapeHtml(/<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '');
      const cookie = form.headers.getSetCookie()[0]?.split(';')[0];
      const body = new URLSearchParams({
        ...hiddenFields(html),
        email: credentials.email,
        password: credentials.password ?? ADMIN_PASSWORD,
        decision: credentials.decision ?? 'allow',
      });
      const posted = await fetch(action, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie === undefined ? {} : { cookie }) },
        body: body.toString(),
      });
      const location = posted.headers.get('location');
      if (posted.status !== 302 || location === null) throw new Error(`the sign-in form answered ${posted.status}`);
      visit.redirectedTo = new URL(location);
      const callback = await fetch(visit.redirectedTo);
      visit.callbackStatus = callback.status;
      visit.callbackPage = await callback.text();
    },
  };
}
