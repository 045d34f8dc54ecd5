/** Where `watch` keeps how far it read each followed file, in the data folder. */
export { LIVE_STATE_FILE } from '../folder/data-dir.js';
