/**
 * The change feed's wire contract [ours] (docs/api.md "Change feed"), shared by the service that
 * streams it and the client that follows it. A leaf file: imports nothing.
 */

/** What changed, never which: an asset (metadata, lifecycle, name), an asset's files, an asset deleted for good, a folder option. */
export const CHANGE_KINDS = ['ASSET', 'ASSET_FILE', 'ASSET_DELETED', 'FOLDER'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** `GET /.well-known/asset-sync`: the service's optional features; absent members are not offered. */
export interface ServiceFeatures {
  changeFeed?: {
    /** Path of the event stream below the API base, e.g. `/change-events`. */
    path: string;
    protocol: 'server-sent-events';
    /** How often an idle stream carries a keep-alive comment. */
    heartbeatSeconds: number;
  };
}

/** One event of the stream: `ready` once it is established (the cursor it starts from), then `change`s. */
export interface ChangeFeedEvent {
  type: 'ready' | 'change';
  /** Where to resume: send it back as `?cursor=` or `Last-Event-ID`. Opaque. */
  cursor: string;
  /** For `change`: the kinds that changed since the previous event (a newer service may add kinds). */
  kinds: string[];
}
