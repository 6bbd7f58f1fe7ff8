# A course-style COMP 424 agent written for gamelab's tests, inside a course project of its own
# (store, constants, utils, the agents package): it checks that the project's modules, not
# gamelab's stand-ins, are the ones imported. Otherwise as tests/agents/colosseum_course.
# It walks to a random cell within reach and puts a barrier on a random free side.
from agents.agent import Agent
from store import register_agent, PROJECT_STORE
from constants import PROJECT_CONSTANTS, DIRECTION_UP, PLAYER_1_NAME
from utils import PROJECT_UTILS, all_logging_disabled

assert PROJECT_STORE and PROJECT_CONSTANTS and PROJECT_UTILS and DIRECTION_UP == 0 and PLAYER_1_NAME == "A"
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
