/** Types of chromium.mjs (a plain script, shared by the tests and the benchmark). */
import type { Browser } from 'playwright-core';

export declare const CHROMIUM: string;

/** Launches headless Chromium through playwright-core. */
export declare function launchChromium(): Promise<Browser>;
