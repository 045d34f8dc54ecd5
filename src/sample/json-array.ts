/** Streams records as a JSON array, a chunk per record. */
export function* jsonArray(records: Iterable<unknown>): Generator<string> {
  yield '[';
  let first = true;
  for (const record of records) {
    yield `${first ? '' : ','}\n${JSON.stringify(record)}`;
    first = false;
  }
  yield '\n]\n';
}
