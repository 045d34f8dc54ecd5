"""Runs the age CLI with a passphrase typed at its terminal prompt.

age reads a passphrase from the terminal only (never stdin or the environment), so the test
gives it one: a pseudo-terminal, the passphrase written when age asks. Usage:
    age_passphrase.py PASSPHRASE age ARGS...
Exits with age's status; age's output files are its own (-o).
"""

import os
import pty
import sys


def main() -> int:
    passphrase, command = sys.argv[1], sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    seen = b""
    answered = 0
    wanted = 2 if "-p" in command else 1
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        # One answer per prompt: age asks twice when it encrypts with -p.
        while answered < wanted and seen.lower().count(b"passphrase") > answered:
            os.write(fd, passphrase.encode() + b"\n")
            answered += 1
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write(seen.decode(errors="replace"))
    return code


if __name__ == "__main__":
    sys.exit(main())
