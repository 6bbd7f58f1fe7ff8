# A course-style COMP30024 Freckers agent written for gamelab's tests, shipped with its own
# `referee` package beside it: it imports what only the course's package has (Board, CellState,
# the exceptions, constants) and checks that this package, not gamelab's stand-in, is the one
# imported. Otherwise as tests/agents/freckers_course/agent.
from referee.game import PlayerColor, Coord, Direction, Action, MoveAction, GrowAction, OWN_REFEREE
from referee.game.board import Board as CourseBoard, CellState
from referee.game.exceptions import IllegalActionException
from referee.game import constants

assert OWN_REFEREE and constants.BOARD_N == 8 and CourseBoard and CellState and IllegalActionException

from .board import Board

import random


class Agent:
    def __init__(self, color: PlayerColor, **referee: dict):
        self._color = color
        self.board = Board()
        self.rng = random.Random(30024)
        print("Testing: I am playing as", "RED" if color == PlayerColor.RED else "BLUE")

    def action(self, **referee: dict) -> Action:
        assert referee["time_remaining"] is None or referee["time_remaining"] > 0
        moves = self.board.moves(self._color)
        forward = [m for m in moves if m.directions[0] not in (Direction.Left, Direction.Right)]
        if forward and self.rng.random() < 0.8:
            return self.rng.choice(forward)
        if moves and self.rng.random() < 0.5:
            return self.rng.choice(moves)
        return GrowAction()

    def update(self, color: PlayerColor, action: Action, **referee: dict):
        match action:
            case MoveAction(coord, dirs):
                self.board.apply(color, action)
            case GrowAction():
                self.board.apply(color, action)
            case _:
                raise ValueError(f"Unknown action type: {action}")
