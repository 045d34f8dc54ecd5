import type { Suite } from '@vitest/runner';

/**
 * An `afterAll` body that, when the file's set-up has already failed, drops its own errors: what
 * it would close may never have been made, and a second error ("cannot read 'close' of
 * undefined") would only hide the first. When the set-up went well, its errors fail the file.
 */
export function cleanUp(
  body: () => unknown,
): (context: object, suite: Readonly<Suite>) => Promise<void> {
  // vitest reads a hook's first parameter as an object pattern of fixtures: it must be one.
  // eslint-disable-next-line no-empty-pattern
  return async ({}, suite) => {
    try {
      await body();
    } catch (error) {
      if (suite.result?.state !== 'fail') throw error;
    }
  };
}
