"""The referee's sandbox: what a process that runs a strategy's code does first (confine), a user's
strategy in a host process of its own (isolation, host) under a supervisor that ends all it starts
(supervisor), and tamper detection in the referee's own processes."""
