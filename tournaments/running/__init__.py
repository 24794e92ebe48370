"""Running a tournament: the one call that plans, plays through a backend and sums up, and the
checkpoint a long run keeps (sealed and audited) so that an interrupted run can be resumed."""
