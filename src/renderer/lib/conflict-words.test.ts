import { describe, expect, it } from 'vitest';
import { authorWords, keepQuestion, keptWords } from './conflict-words.js';

const conflict = { relPath: 'Shots/own.png', copyPath: 'Shots/own (conflict 2026-12-07 114012).png' };

describe('authorWords', () => {
  it('says "you" of the signed-in user, a colleague by name, and nothing when the service does not say', () => {
    expect(authorWords('theirs', { kind: 'you' })).toBe('You, in the service');
    expect(authorWords('theirs', { kind: 'person', name: 'Mia Chen' })).toBe('Mia Chen');
    expect(authorWords('theirs', null)).toBeUndefined();
  });

  it('never says "someone else"', () => {
    for (const author of [{ kind: 'you' } as const, { kind: 'person', name: 'Mia Chen' } as const, null]) expect(authorWords('theirs', author) ?? '').not.toMatch(/someone else/i);
  });

  it('says the local copy was changed here', () => {
    expect(authorWords('mine', null)).toBe('You, on this computer');
  });
});

describe('keepQuestion', () => {
  it('asks before keeping theirs, saying our copy goes to the Trash', () => {
    expect(keepQuestion(conflict, 'theirs')).toEqual({
      question: 'Keep the service’s version of “own.png”?',
      detail: 'Your version, “own (conflict 2026-12-07 114012).png”, goes to the Trash. “own.png” stays as it is in the service.',
      confirm: 'Keep theirs',
    });
  });

  it('asks before keeping mine, saying the service keeps its version in the history and what goes to the Trash', () => {
    expect(keepQuestion(conflict, 'mine')).toEqual({
      question: 'Keep your version of “own.png”?',
      detail:
        'The service keeps its version in the file’s history there. Your version, “own (conflict 2026-12-07 114012).png”, takes the name “own.png” and is uploaded as a new version; a change made to “own.png” on this computer since goes to the Trash.',
      confirm: 'Keep mine',
    });
  });
});

describe('keptWords', () => {
  it('says where the other version went', () => {
    expect(keptWords(conflict, 'theirs')).toBe('Kept the service’s version of “own.png”. Your version, “own (conflict 2026-12-07 114012).png”, went to the Trash.');
    expect(keptWords(conflict, 'mine')).toBe('Kept your version of “own.png”; it uploads as a new version. The service’s version stays in the file’s history there.');
    expect(keptWords(conflict, 'both')).toBe('Kept both versions of “own.png”. Yours stays beside it as “own (conflict 2026-12-07 114012).png” and syncs as a file of its own.');
  });
});
