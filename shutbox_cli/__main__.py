"""`python -m shutbox_cli` runs the shutbox command."""

from .cli import main

main()
