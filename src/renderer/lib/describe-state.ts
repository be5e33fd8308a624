/**
 * The state in words and a colour tone: one exhaustive switch per union of the bridge contract, so a
 * new folder state is a compile error here rather than a blank row. It only reads the state; it never
 * works out sync logic of its own (STYLE.md: the UI renders state).
 */
import type { AppState, FolderActivity, FolderAttention, OverallState, StopReason } from '../../shared/bridge/app-state.js';
import { formatAgo, formatBytes, formatCount, formatEta, formatRate, formatUntil, plural } from './format.js';

/** Colours of the status dot and text: calm green, working blue, paused grey, warning amber, error red. */
export type Tone = 'ok' | 'busy' | 'paused' | 'warn' | 'error';

export interface Described {
  label: string;
  tone: Tone;
  /** A second line: when, how much, what to do. Empty when the label says it all. */
  detail: string;
}

/** A bug: a value the types say cannot exist. */
/** "Paused", or when it ends: "Paused — resumes in 60 min", "Paused — resumes at 14:05". */
export function pausedLabel(until: string | null, now: number): string {
  const when = until === null ? '' : formatUntil(until, now);
  return when === '' ? 'Paused' : `Paused — resumes ${when}`;
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}

/**
 * How many of a folder's files are in step with the service: `12 of 40 files in step`; a folder with
 * no files yet says so rather than counting nothing out of nothing.
 */
export function folderCounts(syncedFiles: number, localFiles: number): string {
  if (localFiles === 0 && syncedFiles === 0) return 'No files yet';
  return `${formatCount(syncedFiles)} of ${plural(localFiles, 'file')} in step`;
}

export function describeFolder(activity: FolderActivity, now: number): Described {
  switch (activity.kind) {
    case 'up-to-date':
      return { label: 'Up to date', tone: 'ok', detail: activity.lastSyncedAt === null ? '' : `Checked ${formatAgo(activity.lastSyncedAt, now)}` };
    case 'waiting':
      return { label: `${plural(activity.waiting, 'file')} waiting`, tone: 'busy', detail: 'They go to the service by themselves; nothing needs you.' };
    case 'attention':
      return { label: 'Needs your attention', tone: 'warn', detail: '' };
    case 'scanning':
      return { label: 'Checking for changes…', tone: 'busy', detail: '' };
    case 'syncing':
      return { label: 'Syncing', tone: 'busy', detail: describeProgress(activity.progress) };
    case 'paused':
      return {
        label: pausedLabel(activity.until, now),
        tone: 'paused',
        detail: activity.waiting > 0 ? `${plural(activity.waiting, 'change')} waiting` : 'Nothing waiting',
      };
    case 'offline':
      return {
        label: activity.waiting > 0 ? `Offline — ${plural(activity.waiting, 'file')} waiting` : 'Offline',
        tone: 'warn',
        detail: activity.nextTryAt === null ? 'Your files are kept on this computer.' : `Your files are kept on this computer. Trying again ${formatUntil(activity.nextTryAt, now)}.`,
      };
    case 'signed-out':
      return { label: 'Signed out', tone: 'warn', detail: 'Sign in again to keep syncing. Your files stay where they are.' };
    case 'stopped':
      return { label: `Stopped: ${stopReasonWords(activity.reason)}`, tone: 'error', detail: `${activity.message} ${activity.fix}`.trim() };
    case 'error':
      return { label: 'Not syncing', tone: 'error', detail: activity.error.message };
    default:
      return assertNever(activity);
  }
}

function stopReasonWords(reason: StopReason): string {
  switch (reason) {
    case 'MISSING_FOLDER':
      return 'the folder is missing';
    case 'MISSING_MARKER':
      return 'the folder was replaced';
    case 'MARKER_MISMATCH':
      return 'a different folder is here';
    case 'OTHER':
      return 'a safety check failed';
    default:
      return assertNever(reason);
  }
}

/** `12 of 40 files · 120 MB of 1.2 GB · 12 MB/s · about 2 min left`. */
export function describeProgress(progress: Extract<FolderActivity, { kind: 'syncing' }>['progress']): string {
  const filesDone = progress.send.filesDone + progress.receive.filesDone;
  const filesPlanned = progress.send.filesPlanned + progress.receive.filesPlanned;
  const bytesDone = progress.send.bytesDone + progress.receive.bytesDone;
  const bytesPlanned = progress.send.bytesPlanned + progress.receive.bytesPlanned;
  const parts = [`${filesDone.toLocaleString('en-US')} of ${plural(filesPlanned, 'file')}`, `${formatBytes(bytesDone)} of ${formatBytes(bytesPlanned)}`];
  if (progress.bytesPerSecond !== null) parts.push(formatRate(progress.bytesPerSecond));
  if (progress.etaSeconds !== null) parts.push(formatEta(progress.etaSeconds));
  return parts.join(' · ');
}

/** The header's one line: at a glance, are my files safe? */
export function describeOverall(state: AppState): Described {
  const waiting = state.folders.reduce((sum, folder) => sum + waitingOf(folder.activity), 0);
  const overall: OverallState = state.overall;
  switch (overall) {
    case 'starting':
      return { label: 'Starting…', tone: 'busy', detail: '' };
    case 'no-account':
      return { label: 'Not set up yet', tone: 'paused', detail: 'Choose where your files sync to.' };
    case 'signed-out':
      return { label: 'Signed out', tone: 'warn', detail: 'Sign in again to keep syncing. Your files stay where they are.' };
    case 'no-folders':
      return { label: 'Nothing synced yet', tone: 'paused', detail: 'Add a folder to start syncing.' };
    case 'attention':
      return { label: 'Needs your attention', tone: 'warn', detail: attentionWords(totalAttention(state)) };
    case 'offline':
      return {
        label: waiting > 0 ? `Offline — ${plural(waiting, 'file')} waiting` : 'Offline',
        tone: 'warn',
        detail: 'Your files are safe on this computer and will upload when the service is back.',
      };
    case 'paused':
      return {
        label: pausedLabel(state.paused?.until ?? null, Date.now()),
        tone: 'paused',
        detail: waiting > 0 ? `${plural(waiting, 'change')} waiting; nothing moves until you resume.` : 'Nothing moves until you resume.',
      };
    case 'syncing':
      return { label: 'Syncing…', tone: 'busy', detail: '' };
    case 'waiting':
      return { label: `${plural(waiting, 'file')} waiting`, tone: 'busy', detail: 'They go to the service as soon as they can.' };
    case 'up-to-date':
      return { label: 'Everything is up to date', tone: 'ok', detail: 'Your files are safe in the service.' };
    default:
      return assertNever(overall);
  }
}

function waitingOf(activity: FolderActivity): number {
  return activity.kind === 'offline' || activity.kind === 'paused' || activity.kind === 'waiting' ? activity.waiting : 0;
}

export function totalAttention(state: AppState): FolderAttention {
  return {
    conflicts: state.conflicts.length,
    notSynced: state.notSyncedTotal,
    heldDeletions: state.heldDeletions.reduce((sum, held) => sum + held.count, 0),
  };
}

/** `2 conflicts · 3 files not synced`. */
export function attentionWords(attention: FolderAttention): string {
  const parts: string[] = [];
  if (attention.conflicts > 0) parts.push(plural(attention.conflicts, 'conflict'));
  if (attention.notSynced > 0) parts.push(`${plural(attention.notSynced, 'file')} not synced`);
  if (attention.heldDeletions > 0) parts.push(`${plural(attention.heldDeletions, 'deletion')} held`);
  return parts.join(' · ');
}
