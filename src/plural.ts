// Moved to model/plural.ts; this path stays a while for branches written against it.
export { plural } from './model/plural.js';
