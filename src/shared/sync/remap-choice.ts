/**
 * What a remap (a synced folder given another place in the service) does with what is already in the
 * old place. Either way no local file is moved or deleted.
 * - `move`: the old place's folder moves to the new place in the service, with everything in it; the
 *   sync state carries over, so nothing uploads again.
 * - `leave`: the old place keeps what it holds; the new place starts with a first sync, which uploads
 *   the local files there and merges what the new place already holds.
 */
export type RemapChoice = 'move' | 'leave';

export const remapChoices: readonly RemapChoice[] = ['move', 'leave'];

export const isRemapChoice = (value: unknown): value is RemapChoice => remapChoices.some((choice) => choice === value);
