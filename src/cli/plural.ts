// The helper lives in the library (reports outside the CLI need it too); kept here for the shell.
export { plural } from '../api/view.js';
