"""`shutbox play`: the interactive table, in plain text, for people at a keyboard or a script at a pipe.

screen: output and prompts; board: how tiles, dice and moves are written; entry: reading the tiles
a player types; seats, human and computer: who sits at the table; aims: what a turn plays for (the
chance to win, to stay in, or a low score); hints: the best choice for that aim and each one's worth;
coach: what each choice cost; standing: the score to beat and the totals; result: the end of a game
in words; datafile, best, record and kept: the solo bests and record in the data folder; table:
games, rounds, rematches; replay: a tournament's game at the table.
"""
