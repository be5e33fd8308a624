/**
 * A file name as a person can see it: white space at the start or end of a name is invisible on
 * screen, so each such character shows as "␣", with a hint in words. Space inside a name is left as
 * it is. Pure, for the views that list names the service may refuse.
 */

export interface VisibleName {
  /** The name with each white-space character at its start or end shown as ␣. */
  text: string;
  /** Where the hidden spaces are, in words, or null when there are none. */
  hint: string | null;
}

const MARK = '␣';

export function visibleName(name: string): VisibleName {
  const lead = /^\s*/.exec(name)?.[0].length ?? 0;
  if (lead === name.length) return name === '' ? { text: name, hint: null } : { text: MARK.repeat(name.length), hint: 'only spaces' };
  const trail = /\s*$/.exec(name)?.[0].length ?? 0;
  const text = MARK.repeat(lead) + name.slice(lead, name.length - trail) + MARK.repeat(trail);
  const hint = lead > 0 && trail > 0 ? 'starts and ends with a space' : lead > 0 ? 'starts with a space' : trail > 0 ? 'ends with a space' : null;
  return { text, hint };
}
