import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { startWatchdog } from './search-watchdog.js';

// A pause of this thread, as a long statement would make (no timer can run meanwhile).
const block = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

describe('the watchdog of a search run in this thread', () => {
  it('stops the search at its next statement once the deadline has passed', () => {
    const db = new Database(':memory:');
    const watchdog = startWatchdog('never written\n', 0.02);
    const stopped = new Error('the search ran longer than 0.02 s');
    const gated = watchdog.gate(db, () => stopped);
    // Before the deadline, statements run as they would (a plucked one too).
    expect(gated.prepare('SELECT 1').pluck().get()).toBe(1);
    // However long the watchdog's thread takes to start, the deadline passes while this one
    // waits, and the next statement stops.
    let thrown: unknown;
    for (let i = 0; i < 600 && thrown === undefined; i++) {
      block(50);
      try {
        gated.prepare('SELECT 2').pluck().get();
      } catch (error) {
        thrown = error;
      }
    }
    expect(thrown).toBe(stopped);
    expect(() => {
      gated.exec('SELECT 3');
    }).not.toThrow(); // the search took the deadline once; the watchdog does nothing more
    watchdog.finished();
    db.close();
  });

  it('runs statements as the store would before the deadline', () => {
    const db = new Database(':memory:');
    const watchdog = startWatchdog('never written\n', 60);
    const gated = watchdog.gate(db, () => new Error('stopped'));
    gated.exec('CREATE TABLE t (n INTEGER)');
    gated.prepare('INSERT INTO t VALUES (?)').run(4);
    expect(gated.prepare('SELECT n FROM t').all()).toEqual([{ n: 4 }]);
    expect([...gated.prepare('SELECT n FROM t').pluck().iterate()]).toEqual([4]);
    watchdog.finished();
    db.close();
  });
});
