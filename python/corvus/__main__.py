"""`python -m corvus` and the `corvus` command that `pip install .` puts on the
PATH: the planner's command line, the same as the `corvus` binary's (the
Rust function behind both is `corvus::commands::cli::run`)."""

import sys

from . import _corvus


def main() -> None:
    sys.exit(_corvus.main(["corvus", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
