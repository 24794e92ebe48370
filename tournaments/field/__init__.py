"""The field and its configuration: a tournament's settings read from a file and from options,
checked and written back into reports, and the strategies that enter it, loaded and fingerprinted
(the source digests that tell a resumed run its strategies are the ones it began with)."""
