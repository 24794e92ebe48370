"""`python -m shutbox_cli` runs the shutbox command."""

from .entry import main

main()
