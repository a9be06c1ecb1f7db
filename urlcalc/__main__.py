import sys

from urlcalc.cli import main

sys.exit(main())
