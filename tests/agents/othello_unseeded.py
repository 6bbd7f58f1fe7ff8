"""A course-style Othello agent for tests/external.rs (gamelab's Python interface): it never
seeds anything itself and draws from Python's global `random` and numpy's global generator, as
course agents do; gamelab's per-game seed (the adapter seeds both at newgame) makes its games
reproducible."""
import random

import numpy as np


def choose_move(board, me, legal, time_ms):
    i = random.randrange(len(legal))
    j = int(np.random.randint(len(legal)))
    return legal[(i + j) % len(legal)]
