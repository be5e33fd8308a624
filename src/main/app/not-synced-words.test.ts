import { describe, expect, it } from 'vitest';
import { edgeSpaces, notSyncedWords, type NotSyncedItem } from './not-synced-words.js';

const item = (code: string, detail: string, relPath = 'Brand/logo.png', kind: NotSyncedItem['kind'] = 'file'): NotSyncedItem => ({ code, detail, relPath, kind });

/** Words a designer should never meet on an item's main line: errno codes, and jargon in any case. */
const ERRNO = /\bE[A-Z]{2,}\b/;
const JARGON = /errno|NFC|NFD|Unicode|normalis|symbolic|FIFO|socket|UTF-8|bytes/i;

/** Every scanner reason and the transfer codes the words know, with a technical message as the engine writes it. */
const cases: NotSyncedItem[] = [
  item('UNREADABLE', 'cannot read the file: EACCES'),
  item('UNREADABLE', 'cannot list the folder: EACCES', 'Old drafts', 'folder'),
  item('UNREADABLE', 'cannot read the file: EBUSY'),
  item('UNREADABLE', 'cannot read the file: EIO'),
  item('UNREADABLE', 'cannot list the folder: EIO', 'Old drafts', 'folder'),
  item('INVALID_NAME', 'name starts or ends with white space', 'logo.png '),
  item('INVALID_NAME', 'name starts or ends with white space', ' Old drafts', 'folder'),
  item('INVALID_NAME', 'name contains a control character', 'logo\u0007.png'),
  item('INVALID_NAME', 'a folder above it: name starts or ends with white space', 'Old drafts /draft.txt'),
  item('NAME_CLASH', 'the same name as "café.png" in this folder once Unicode-normalised, but spelled another way (decomposed, as files from a Mac are)', 'cafe\u0301.png'),
  item('NAME_CLASH', '2 names in this folder are the same once Unicode-normalised (none of them composed, NFC); rename all but one', 'Re\u0301sume\u0301', 'folder'),
  item('TOO_LONG', 'name is longer than 255 UTF-8 bytes'),
  item('TOO_LONG', 'more than 20 folder levels deep'),
  item('SYMLINK', 'symbolic links are not followed'),
  item('SPECIAL_FILE', 'not a regular file (FIFO, socket or device)'),
  item('LOCAL_FILE_CHANGED', 'the file changed while it was read'),
  item('LOCAL_FILE_ERROR', "EACCES: permission denied, open '/home/ana/Asset Sync/logo.png'"),
  item('CHECKSUM_MISMATCH', 'md5 abc != def'),
  item('SERVER_ERROR', 'POST /asset-uploads: 500 Internal Server Error'),
];

describe('not-synced words', () => {
  it('say a permission problem as a designer would, for a file and for a folder', () => {
    expect(notSyncedWords(item('UNREADABLE', 'cannot read the file: EACCES'))).toEqual({
      reason: 'You don’t have permission to read this file.',
      fix: 'Check its sharing or permissions, then Retry.',
    });
    expect(notSyncedWords(item('UNREADABLE', 'cannot list the folder: EPERM', 'Old drafts', 'folder')).reason).toBe('You don’t have permission to open this folder, so nothing in it syncs.');
    expect(notSyncedWords(item('LOCAL_FILE_ERROR', "EACCES: permission denied, open '/x/logo.png'")).reason).toBe('You don’t have permission to read this file.');
  });

  it('say a name clash without Unicode jargon', () => {
    expect(notSyncedWords(cases[9] as NotSyncedItem)).toEqual({
      reason: 'Another file here has the same name written differently (an accent typed another way, for example).',
      fix: 'Rename one of them.',
    });
  });

  it('say where a name has a space the service cannot store, and call a folder a folder', () => {
    expect(notSyncedWords(item('INVALID_NAME', 'name starts or ends with white space', 'Brand/logo.png '))).toEqual({
      reason: 'The file name ends with a space, which the service can’t store.',
      fix: 'Remove the space at the end of the name.',
    });
    expect(notSyncedWords(item('INVALID_NAME', 'name starts or ends with white space', ' Old drafts ', 'folder'))).toEqual({
      reason: 'The folder name starts and ends with a space, which the service can’t store, so nothing in this folder syncs.',
      fix: 'Remove the spaces at the start and end of the name.',
    });
    expect(notSyncedWords(cases[8] as NotSyncedItem).reason).toBe('A folder it’s in has a name the service can’t store.');
  });

  it('never show a code or jargon, never say the same sentence twice, and always end in a full stop', () => {
    for (const entry of cases) {
      const words = notSyncedWords(entry);
      expect(`${words.reason} ${words.fix}`, entry.code).not.toMatch(ERRNO);
      expect(`${words.reason} ${words.fix}`, entry.code).not.toMatch(JARGON);
      expect(words.fix, entry.code).not.toBe(words.reason);
      const sentences = `${words.reason} ${words.fix}`.split(/(?<=\.)\s+/);
      expect(new Set(sentences).size, entry.code).toBe(sentences.length);
      expect(words.reason, entry.code).toMatch(/\.$/);
      expect(words.fix, entry.code).toMatch(/\.$/);
    }
  });

  it('call a folder a folder whatever the reason', () => {
    for (const code of ['UNREADABLE', 'INVALID_NAME', 'NAME_CLASH', 'TOO_LONG', 'SERVER_ERROR']) {
      const words = notSyncedWords(item(code, code === 'UNREADABLE' ? 'cannot list the folder: EACCES' : 'x', ' Old drafts', 'folder'));
      expect(words.reason, code).toMatch(/\bfolder\b/);
      expect(words.reason, code).not.toMatch(/\bfile\b/);
    }
  });
});

describe('edge spaces', () => {
  it('find white space at the start, the end, both, or neither', () => {
    expect(edgeSpaces('logo.png ')).toBe('end');
    expect(edgeSpaces(' logo.png')).toBe('start');
    expect(edgeSpaces(' logo.png ')).toBe('both');
    expect(edgeSpaces('logo final.png')).toBeNull();
  });
});
