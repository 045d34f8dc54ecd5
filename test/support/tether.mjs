// Loaded with `node --import` into a process a test starts: when the test's process is gone
// (its file ended, failed or was killed with -9), this process is reparented, and stops itself.
// The parent's pid comes from the parent: read here, a parent killed early was already gone.
const parent = Number(process.env.CHATGRAPH_TETHER_PARENT ?? process.ppid);
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 250).unref();
