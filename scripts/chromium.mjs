// Debian's Chromium, headless, as the tests and the benchmark drive it: the flags keep it from
// reaching for the network this machine does not have (and never download a browser).
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Launches headless Chromium through playwright-core. */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
