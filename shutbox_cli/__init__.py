"""shutbox: play and study Shut the Box from the command line.

Kept nearly empty on purpose: every worker process imports this package.
"""

__version__ = "0.1.0"
