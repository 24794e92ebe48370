"""One module per `shutbox` subcommand; each has `register(app)`."""
