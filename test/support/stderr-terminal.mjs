// Preloaded into a CLI the test runs (node --import): its stderr counts as a terminal, so the
// progress bar draws its status lines ("pushing [###---] … · 512 conversations") into the pipe
// the test reads, and the test waits on the CLI's own status line rather than a timer.
process.stderr.isTTY = true;
