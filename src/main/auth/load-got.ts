/** got, loaded on its first use (an OAuth exchange or a metadata look): the app's start makes neither. */
import type gotModule from 'got';
import { loadOnce } from '../../shared/load-once.js';

export const loadGot: () => Promise<typeof gotModule> = loadOnce(() => import('got').then((module) => module.default));
