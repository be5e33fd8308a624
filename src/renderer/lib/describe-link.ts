/**
 * The link to the app in words (app-link.ts): what the window says while it cannot reach the app, in
 * the banner above everything, and in place of the app's and each folder's state, which then never
 * repeat the last state they had (an app that stopped is not "up to date"). Nothing to say while the
 * link is up.
 */
import type { LinkState } from '../transport/app-link.js';
import { assertNever, type Described } from './describe-state.js';

export interface LinkWords {
  /** The banner's heading: what is wrong, in one line. */
  title: string;
  /** The banner's sentence: what to do, and what the page does meanwhile. */
  text: string;
  /** The sidebar's line, in place of the app's overall state. */
  overall: Described;
  /** A folder row's state, in place of its last one. */
  folder: Described;
}

export function describeLink(link: Exclude<LinkState, 'up'>): LinkWords {
  switch (link) {
    case 'down':
      return {
        title: 'Asset Sync is not running',
        text: 'Start it again (npm start) and this page reconnects by itself. Until then, what you see is how things were when it stopped.',
        overall: { label: 'Not running', tone: 'warn', detail: 'Nothing syncs until Asset Sync is started again.' },
        folder: { label: 'Not syncing while Asset Sync is stopped', tone: 'paused', detail: '' },
      };
    case 'refused':
      return {
        title: 'This page is no longer signed in to Asset Sync',
        text: 'Asset Sync is running, but it does not know this page any more. Open the address it printed when it started; this page then reconnects too.',
        overall: { label: 'Can’t reach Asset Sync', tone: 'warn', detail: 'This page is no longer signed in.' },
        folder: { label: 'Not known: this page can’t reach Asset Sync', tone: 'paused', detail: '' },
      };
    default:
      return assertNever(link);
  }
}
