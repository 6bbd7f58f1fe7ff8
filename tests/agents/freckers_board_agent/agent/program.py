# A course-style COMP30024 Freckers agent written for gamelab's tests, without a referee package
# of its own: it imports what the course's package offers and gamelab's stand-in must cover
# (Board, CellState, IllegalActionException, constants, the events), keeps the game on the
# stand-in's Board (apply_action for both players' actions), and finds its legal actions by
# applying and undoing candidates on it. Any disagreement between that Board and gamelab's
# rules shows as an illegal move or a crash in the rows.
import random

from referee.game import (
    PlayerColor, Coord, Direction, Action, MoveAction, GrowAction, GameBegin, Board, IllegalActionException, constants,
)
from referee.game.board import Board as BoardClass, CellState
from referee.game.exceptions import IllegalActionException as Illegal

assert Board is BoardClass and Illegal is IllegalActionException and constants.BOARD_N == 8 and GameBegin


class Agent:
    def __init__(self, color: PlayerColor, **referee: dict):
        self.color = color
        self.board = Board()
        assert isinstance(self.board[Coord(0, 1)], CellState)

    def legal_actions(self):
        out = [GrowAction()]
        n = constants.BOARD_N
        dirs = list(Direction)
        for r in range(n):
            for c in range(n):
                if self.board[Coord(r, c)].state != self.color:
                    continue
                candidates = [MoveAction(Coord(r, c), d) for d in dirs]
                candidates += [MoveAction(Coord(r, c), (d, e)) for d in dirs for e in dirs]
                for a in candidates:
                    try:
                        self.board.apply_action(a)
                    except IllegalActionException:
                        continue
                    self.board.undo_action()
                    out.append(a)
        return out

    def action(self, **referee: dict) -> Action:
        assert self.board.turn_color == self.color, "the board's turn is ours"
        moves = self.legal_actions()
        jumps = [m for m in moves if isinstance(m, MoveAction) and len(m.directions) > 1]
        if jumps and random.random() < 0.5:
            return random.choice(jumps)
        return random.choice(moves)

    def update(self, color: PlayerColor, action: Action, **referee: dict):
        assert self.board.turn_color == color
        self.board.apply_action(action)
