// Moved to model/version.ts; this path stays a while for branches written against it.
export { IMPORTER, VERSION } from './model/version.js';
