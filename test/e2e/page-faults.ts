import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * What is wrong with a page as a person meets it, one line each, named by `label`: wider than its
 * viewport, or a serious or critical axe-core violation. Empty when all is well.
 */
export async function pageFaults(page: Page, label: string): Promise<string[]> {
  const faults: string[] = [];
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  if (wide) faults.push(`${label}: wider than the viewport`);
  const { violations } = await new AxeBuilder({ page }).analyze();
  for (const v of violations)
    if (v.impact === 'serious' || v.impact === 'critical')
      faults.push(`${label}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  return faults;
}
