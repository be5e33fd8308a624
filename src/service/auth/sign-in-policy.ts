/**
 * An account's security settings applied to one of its members: sign-in here is the
 * PASSWORD method, so the account must allow it, and when the account lists allowed e-mail domains the
 * member's address must be at one of them. Checked at the sign-in form and again at every code
 * exchange and refresh, so a tightened setting ends sessions it no longer allows. Staff are not
 * members and are not held to it (session-members.ts).
 */
import type { AccountSettings } from '../administration/account-settings.js';

/** Why the account's settings refuse a password sign-in of `email`, or undefined when they allow it. */
export function memberSignInRefusal(settings: AccountSettings, accountId: string, email: string): string | undefined {
  if (!settings.loginMethods(accountId).includes('PASSWORD')) return 'This account does not allow signing in with a password.';
  const domains = settings.allowedEmailDomains(accountId);
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (domains.length > 0 && !domains.includes(domain)) return `This account only allows sign-ins with an address at ${domains.join(', ')}.`;
  return undefined;
}
