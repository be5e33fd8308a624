/**
 * sharp, loaded on its first use: its native library is a tenth of a second of a start that may make
 * no image at all (the app's built-in library starting). Every process of the service loads it here.
 */
import type sharpModule from 'sharp';
import { loadOnce } from '../../shared/load-once.js';

export const loadSharp: () => Promise<typeof sharpModule> = loadOnce(() => import('sharp').then((module) => module.default));
