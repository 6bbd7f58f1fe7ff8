"""A Freckers board under the course's names (`referee.game.board`: Board, CellState,
CellMutation, BoardMutation), written for gamelab from the course's published interface and
gamelab's rules (docs/rules/freckers.md, the referee's lenient multi-jumps): apply and undo an
action, read a cell, the turn, the winner, and a rendering. Agents that ship the course's own
`referee` package beside their `agent/` folder get that one instead (the adapter's rule)."""
from dataclasses import dataclass

from . import constants
from .constants import BOARD_N  # noqa: F401  (agents import it from here too)
from .exceptions import IllegalActionException

LILY_PAD = "LilyPad"


def _types():
    # The package's types, imported late (the package imports this module).
    from . import Coord, Direction, GrowAction, MoveAction, PlayerColor
    return Coord, Direction, GrowAction, MoveAction, PlayerColor


@dataclass(frozen=True, slots=True)
class CellState:
    """What a cell holds: a frog (`PlayerColor`, on its pad), `"LilyPad"`, or None (water)."""

    state: object = None

    def __str__(self):
        if self.state is None:
            return "."
        if self.state == LILY_PAD:
            return "*"
        return "R" if self.state.value == 0 else "B"


@dataclass(frozen=True, slots=True)
class CellMutation:
    cell: object
    prev: CellState
    next: CellState


@dataclass(frozen=True, slots=True)
class BoardMutation:
    action: object
    cell_mutations: frozenset


class Board:
    """The board, whose turn it is and the actions played so far (for `undo_action`)."""

    def __init__(self, initial_state=None, initial_player=None):
        Coord, _, _, _, PlayerColor = _types()
        n = constants.BOARD_N
        if initial_state is None:
            initial_state = {}
            for c in range(1, n - 1):
                initial_state[Coord(0, c)] = CellState(PlayerColor.RED)
                initial_state[Coord(n - 1, c)] = CellState(PlayerColor.BLUE)
                initial_state[Coord(1, c)] = CellState(LILY_PAD)
                initial_state[Coord(n - 2, c)] = CellState(LILY_PAD)
            for r, c in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
                initial_state[Coord(r, c)] = CellState(LILY_PAD)
        self._state = {Coord(r, c): CellState(None) for r in range(n) for c in range(n)}
        self._state.update(initial_state)
        self._turn_color = initial_player if initial_player is not None else PlayerColor.RED
        self._history = []

    def __getitem__(self, cell):
        return self._state[cell]

    @property
    def turn_color(self):
        return self._turn_color

    @property
    def turn_count(self):
        return len(self._history)

    @property
    def turn_limit_reached(self):
        return self.turn_count >= constants.MAX_TURNS

    def _score(self, color):
        goal = constants.BOARD_N - 1 if color.value == 0 else 0
        return sum(1 for cell, s in self._state.items() if s.state == color and cell.r == goal)

    @property
    def game_over(self):
        _, _, _, _, PlayerColor = _types()
        return self.turn_limit_reached or any(self._score(p) == constants.FROGS_PER_PLAYER for p in PlayerColor)

    @property
    def winner_color(self):
        """The winner once the game is over (more frogs in the goal row), else None."""
        _, _, _, _, PlayerColor = _types()
        if not self.game_over:
            return None
        red, blue = self._score(PlayerColor.RED), self._score(PlayerColor.BLUE)
        return None if red == blue else (PlayerColor.RED if red > blue else PlayerColor.BLUE)

    def _allowed(self, color):
        _, Direction, _, _, _ = _types()
        forward = (Direction.Down, Direction.DownLeft, Direction.DownRight) if color.value == 0 else (Direction.Up, Direction.UpLeft, Direction.UpRight)
        return forward + (Direction.Left, Direction.Right)

    def _target(self, cell, d, steps):
        Coord, _, _, _, _ = _types()
        r, c = cell.r + d.r * steps, cell.c + d.c * steps
        n = constants.BOARD_N
        return Coord(r, c) if 0 <= r < n and 0 <= c < n else None

    def _is_frog(self, cell):
        s = self._state[cell].state
        return s is not None and s != LILY_PAD

    def _move_destination(self, color, action):
        """The cell a move ends on, or an IllegalActionException saying why it is illegal."""
        if not self._is_frog(action.coord) or self._state[action.coord].state != color:
            raise IllegalActionException("no {} frog at {}".format(color, action.coord), color)
        allowed = self._allowed(color)
        dirs = action.directions
        if not dirs or any(d not in allowed for d in dirs):
            raise IllegalActionException("a direction {} may not use".format(color), color)
        first = self._target(action.coord, dirs[0], 1)
        if first is None:
            raise IllegalActionException("the move leaves the board", color)
        if len(dirs) == 1 and not self._is_frog(first):
            if self._state[first].state != LILY_PAD:
                raise IllegalActionException("a step onto water", color)
            return first
        at = action.coord
        for d in dirs:
            over, land = self._target(at, d, 1), self._target(at, d, 2)
            if over is None or land is None or not self._is_frog(over):
                raise IllegalActionException("a jump with no frog to jump over, or off the board", color)
            if self._is_frog(land) or land == action.coord:
                raise IllegalActionException("a jump onto a frog", color)
            at = land
        if self._state[at].state != LILY_PAD:
            raise IllegalActionException("the move does not end on a lily pad", color)
        return at

    def apply_action(self, action):
        """Plays `action` for the player whose turn it is; an illegal one raises
        IllegalActionException and changes nothing. Returns what changed."""
        Coord, _, GrowAction, MoveAction, _ = _types()
        color = self._turn_color
        if self.game_over:
            raise IllegalActionException("the game is over", color)
        changes = {}
        if isinstance(action, GrowAction):
            for cell, s in list(self._state.items()):
                if s.state == color:
                    for dr in (-1, 0, 1):
                        for dc in (-1, 0, 1):
                            r, c = cell.r + dr, cell.c + dc
                            if (dr or dc) and 0 <= r < constants.BOARD_N and 0 <= c < constants.BOARD_N:
                                near = Coord(r, c)
                                if self._state[near].state is None:
                                    changes[near] = (self._state[near], CellState(LILY_PAD))
        elif isinstance(action, MoveAction):
            end = self._move_destination(color, action)
            changes[action.coord] = (self._state[action.coord], CellState(None))
            changes[end] = (self._state[end], CellState(color))
        else:
            raise IllegalActionException("not an action: {!r}".format(action), color)
        for cell, (_, new) in changes.items():
            self._state[cell] = new
        mutation = BoardMutation(action, frozenset(CellMutation(cell, old, new) for cell, (old, new) in changes.items()))
        self._history.append(mutation)
        self._turn_color = color.opponent
        return mutation

    def undo_action(self):
        """Takes back the last action; returns what it had changed."""
        if not self._history:
            raise IndexError("no action to undo")
        mutation = self._history.pop()
        for m in mutation.cell_mutations:
            self._state[m.cell] = m.prev
        self._turn_color = self._turn_color.opponent
        return mutation

    def render(self, use_color=False, use_unicode=False):
        """The board as text, row 0 on top: `R`/`B` frogs, `*` pads, `.` water."""
        Coord, _, _, _, _ = _types()
        n = constants.BOARD_N
        return "\n".join(" ".join(str(self._state[Coord(r, c)]) for c in range(n)) for r in range(n)) + "\n"

    def __str__(self):
        return self.render()
