/**
 * Whether an IPC message comes from our own window's own page (Electron security checklist: validate
 * the sender of every IPC message). A message counts only when it comes from the main frame of the
 * window's web contents and that frame shows our page (the built renderer's index.html; the hash route
 * may differ). A subframe, another window, or our window after it navigated elsewhere is refused.
 */

/** What the check reads of Electron's WebFrameMain. */
export interface SenderFrameLike {
  readonly url: string;
  /** null for a main frame. */
  readonly parent: unknown;
}

/** What the transport uses of Electron's WebContents. */
export interface IpcSenderLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/** What the transport reads of Electron's IpcMainEvent / IpcMainInvokeEvent. */
export interface IpcEventLike {
  readonly sender: IpcSenderLike;
  readonly senderFrame: SenderFrameLike | null;
}

export interface TrustedPage {
  /** The id of our window's web contents, or undefined while there is no window. */
  webContentsId(): number | undefined;
  /** Our page's URL, `app://bundle/index.html` (app-protocol.ts). */
  pageUrl: string;
}

/** The URL without its hash (routes like `#/conflicts` are the same page). */
function withoutHash(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

export function isTrustedSender(event: IpcEventLike, page: TrustedPage): boolean {
  const frame = event.senderFrame;
  if (frame === null || frame.parent !== null) return false;
  const ours = page.webContentsId();
  if (ours === undefined || event.sender.id !== ours) return false;
  const url = withoutHash(frame.url);
  return url !== undefined && url === withoutHash(page.pageUrl);
}
