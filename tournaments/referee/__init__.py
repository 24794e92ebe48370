"""The referee's sandbox: what a process that runs a strategy's code does first (confine), and a
user's strategy in a host process of its own (isolation, host; remote seats it at a table, replies
checks what it says; idle keeps a probed host for the run that follows) under a supervisor that
ends all it starts (supervisor), asked over a socket: the referee never runs a user's code in its
own process."""
