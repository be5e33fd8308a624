/**
 * Where the active option of a list moves on a key (the combobox pattern of WAI-ARIA: focus stays in
 * the text box, the arrows move the highlighted option). Pure, so every key is tested without a page.
 */

/** The new active index after `key`, or undefined when the key is not a list key. -1 = none active. */
export function movedIndex(key: string, current: number, count: number): number | undefined {
  if (count === 0) return key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End' ? -1 : undefined;
  switch (key) {
    case 'ArrowDown':
      return current < 0 ? 0 : Math.min(count - 1, current + 1);
    case 'ArrowUp':
      return current < 0 ? count - 1 : Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
