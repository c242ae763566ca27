import sys

from rougekit.cli.main import main

sys.exit(main())
