/**
 * Runs axe-core on the page as it is and fails on serious or critical violations (issue 16: "no
 * serious or critical violations on any view"). Minor and moderate findings are returned for a look.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export class AccessibilityError extends Error {
  readonly code = 'ACCESSIBILITY_VIOLATIONS';
}

export async function checkAccessibility(page: Page, view: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const bad = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (bad.length === 0) return;
  const lines = bad.map((violation) => {
    const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join('; ');
    return `${violation.impact ?? '?'} ${violation.id}: ${violation.help} (${targets})`;
  });
  throw new AccessibilityError(`${view}: ${bad.length} serious or critical accessibility violation(s):\n${lines.join('\n')}`);
}
