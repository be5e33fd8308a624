/** The engine's numbered migrations, in order. Append only: a shipped migration is never edited. */
import engine from './0001-engine.js';
import remote from './0002-remote.js';
import unreadFiles from './0003-unread-files.js';
import landings from './0004-landings.js';
import conflictCopyIdentity from './0005-conflict-copy-identity.js';
import uploadJobFolder from './0006-upload-job-folder.js';
import landingMoves from './0007-landing-moves.js';
import successors from './0008-successors.js';
import movesAhead from './0009-moves-ahead.js';
import stateOwner from './0010-state-owner.js';
import remapsAhead from './0011-remaps-ahead.js';
import activity from './0012-activity.js';

export const migrations: readonly string[] = [engine, remote, unreadFiles, landings, conflictCopyIdentity, uploadJobFolder, landingMoves, successors, movesAhead, stateOwner, remapsAhead, activity];
