"""The package's ``m3go`` command: the console script pip installs next to the environment's
``python`` (pyproject.toml's ``[project.scripts]``), and ``python -m m3go``. Both run the whole
command line, the same one ``cargo install`` builds, linked into the native module
(``m3go._m3go._run_command``), and exit with its exit code."""

import signal
import sys

from . import _m3go


def main() -> None:
    # Python turns Ctrl-C into KeyboardInterrupt, which it can raise only once the command has
    # returned: the default action ends the process at once, as it ends the binary (the
    # commands that run other programs install their own handler, which stops those first).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_m3go._run_command(["m3go", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
