"""``python -m graphreason.cli``: the same entry point as the ``graphreason`` command."""

import sys

from graphreason.cli.main import main

sys.exit(main())
