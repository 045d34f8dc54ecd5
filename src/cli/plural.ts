// The helper lives in the library (reports outside the CLI need it too); kept here for the shell.
export { plural, thousands } from '../api/view.js';
