/**
 * sharp, loaded on its first use: its native library is a tenth of a second of a start that may make
 * no image at all (the app's built-in library starting). Every process of the service loads it here.
 */
import type sharpModule from 'sharp';

let loading: Promise<typeof sharpModule> | undefined;

export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
