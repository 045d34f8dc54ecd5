/** Where `watch` keeps how far it read each followed file, in the data folder. */
export const LIVE_STATE_FILE = 'live-state.sqlite';
