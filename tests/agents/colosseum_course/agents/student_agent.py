# A course-style COMP 424 agent written for gamelab's tests: it uses the course's imports and
# interface as a student's student_agent.py does (and prints to standard output, as many do).
# It walks to a random cell within reach and puts a barrier on a random free side.
from agents.agent import Agent
from store import register_agent
from constants import DIRECTION_UP, DIRECTION_LEFT, PLAYER_1_NAME, MAX_BOARD_SIZE
from utils import all_logging_disabled

assert (DIRECTION_UP, DIRECTION_LEFT, PLAYER_1_NAME) == (0, 3, "A") and MAX_BOARD_SIZE >= 5
import sys
import numpy as np
from copy import deepcopy
import time

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left: the barrier sides 0-3


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super(StudentAgent, self).__init__()
        self.name = "StudentAgent"
        self.rng = np.random.default_rng(424)
        self.turns = 0

    def step(self, chess_board, my_pos, adv_pos, max_step):
        start = time.time()
        self.turns += 1
        print("turn", self.turns, "at", my_pos)  # course agents print; gamelab keeps it out of the protocol
        size = chess_board.shape[0]
        reach, frontier = {tuple(my_pos)}, [tuple(my_pos)]
        for _ in range(max_step):
            nxt = []
            for (r, c) in frontier:
                for d, (dr, dc) in enumerate(MOVES):
                    cell = (r + dr, c + dc)
                    if chess_board[r, c, d] or cell == tuple(adv_pos) or cell in reach:
                        continue
                    if 0 <= cell[0] < size and 0 <= cell[1] < size:
                        reach.add(cell)
                        nxt.append(cell)
            frontier = nxt
        options = [(cell, d) for cell in sorted(reach) for d in range(4) if not chess_board[cell[0], cell[1], d]]
        cell, d = options[self.rng.integers(len(options))]
        assert time.time() - start < 2
        return cell, d
