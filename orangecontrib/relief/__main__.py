"""``python -m orangecontrib.relief``: see :mod:`orangecontrib.relief.cli`."""
import sys

from orangecontrib.relief.cli import main

sys.exit(main())
