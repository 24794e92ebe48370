"""What tests in every folder share: the paths of the checkout and of the test data, the runners of
the command, and helpers for strategy and play-table tests. Importable as `helpers` from any test
folder (pytest's `pythonpath` puts `tests/` on the path)."""
