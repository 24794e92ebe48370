"""A strategy file that raises KeyboardInterrupt while it is imported."""

raise KeyboardInterrupt
