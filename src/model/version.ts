/** chatgraph's version (a test keeps it equal to package.json's). */
export const VERSION = '0.1.0';

/** The importer name PAM files carry: `name/x.y.z`, as the schema's pattern requires. */
export const IMPORTER = `chatgraph/${VERSION}`;
