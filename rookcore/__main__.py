"""The command line: ``python -m rookcore score|play|analyze|arena`` (record-format.md "Commands")."""
from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
