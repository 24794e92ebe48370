"""`shutbox play`: the interactive table, in plain text, for people at a keyboard or a script at a pipe.

screen: output and prompts; board: how tiles, dice and moves are written; entry: reading the tiles
a player types; seats, human and computer: who sits at the table; hints: the optimal move and its
values; result: the end of a game in words; best: the solo best scores; table: games, rounds, rematches.
"""
