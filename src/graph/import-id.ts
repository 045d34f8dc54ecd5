/** The Import node id of an export file. */
export function importIdOf(checksum: string): string {
  return `import:${checksum}`;
}
