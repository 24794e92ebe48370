"""A strategy file that raises GeneratorExit while it is imported."""

raise GeneratorExit
