/**
 * A file of the sync folder (or the folder itself) that this machine does not accept: sealed to
 * other keys, damaged, signed by a key outside the verified roster, or an invite that is
 * expired, used or wrong. The message holds the word `refused` and the file's name, as the
 * issue asks of the one line on stderr.
 */
export class SyncRefusal extends Error {
  override readonly name = 'SyncRefusal';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`refused ${file}: ${reason}`);
  }
}
