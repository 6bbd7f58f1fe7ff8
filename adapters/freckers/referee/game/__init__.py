"""What a COMP30024 Freckers agent imports from `referee.game`, written for gamelab from the
course's published interface and gamelab's rules (docs/rules/freckers.md): PlayerColor, Coord,
Vector, Direction, Action, MoveAction, GrowAction, BOARD_N and MAX_TURNS; `Board` and
`CellState` (`board`), `IllegalActionException` (`exceptions`), `constants`, and the game's
events (GameBegin, TurnBegin, TurnEnd, BoardUpdate, PlayerInitialising, PlayerError, GameEnd,
UnhandledError, GameUpdate). Agents that ship the course's own package beside `agent/` get
that one instead."""
from dataclasses import dataclass
from enum import Enum

BOARD_N = 8


class PlayerColor(Enum):
    RED = 0
    BLUE = 1

    def __str__(self):
        return {PlayerColor.RED: "RED", PlayerColor.BLUE: "BLUE"}[self]

    def __index__(self):
        return self.value

    def __int__(self):
        return self.value

    @property
    def opponent(self):
        return PlayerColor.BLUE if self == PlayerColor.RED else PlayerColor.RED


@dataclass(frozen=True, slots=True)
class Vector:
    r: int
    c: int

    def __add__(self, other):
        return self.__class__(self.r + other.r, self.c + other.c)

    def __sub__(self, other):
        return self.__class__(self.r - other.r, self.c - other.c)

    def __neg__(self):
        return self.__class__(-self.r, -self.c)

    def __mul__(self, n):
        return self.__class__(self.r * n, self.c * n)

    def __iter__(self):
        yield self.r
        yield self.c


class Direction(Enum):
    Down = Vector(1, 0)
    DownLeft = Vector(1, -1)
    DownRight = Vector(1, 1)
    Left = Vector(0, -1)
    Right = Vector(0, 1)
    Up = Vector(-1, 0)
    UpLeft = Vector(-1, -1)
    UpRight = Vector(-1, 1)

    @property
    def r(self):
        return self.value.r

    @property
    def c(self):
        return self.value.c

    def __neg__(self):
        return Direction(-self.value)

    def __str__(self):
        return "[{} -> {}]".format(self.name, tuple(self.value))


@dataclass(frozen=True, slots=True)
class Coord(Vector):
    """A cell (row, column), 0 <= r, c < BOARD_N; adding a direction that leaves the board is a
    ValueError."""

    def __post_init__(self):
        if not (0 <= self.r < BOARD_N and 0 <= self.c < BOARD_N):
            raise ValueError("Out-of-bounds coordinate: ({}, {})".format(self.r, self.c))

    def __add__(self, other):
        value = other.value if isinstance(other, Direction) else other
        return Coord(self.r + value.r, self.c + value.c)

    def __sub__(self, other):
        value = other.value if isinstance(other, Direction) else other
        return Coord(self.r - value.r, self.c - value.c)

    def __str__(self):
        return "{}-{}".format(self.r, self.c)


@dataclass(frozen=True, slots=True)
class MoveAction:
    """Move the frog at `coord` one step, or jump by the directions given (one per hop)."""

    coord: Coord
    _directions: object

    @property
    def directions(self):
        d = self._directions
        return (d,) if isinstance(d, Direction) else tuple(d)

    def __str__(self):
        return "MOVE({}, [{}])".format(self.coord, ", ".join(str(d) for d in self.directions))


@dataclass(frozen=True, slots=True)
class GrowAction:
    def __str__(self):
        return "GROW"


Action = MoveAction | GrowAction


# The rest of the interface: constants, the board, the exceptions and the game's events.
from . import constants  # noqa: E402
from .constants import MAX_TURNS  # noqa: E402,F401
from .board import Board, BoardMutation, CellMutation, CellState  # noqa: E402,F401
from .exceptions import IllegalActionException  # noqa: E402,F401


@dataclass(frozen=True)
class GameUpdate:
    """An event of the game, as the course's referee announces them."""


@dataclass(frozen=True)
class PlayerInitialising(GameUpdate):
    player: PlayerColor


@dataclass(frozen=True)
class GameBegin(GameUpdate):
    board: Board


@dataclass(frozen=True)
class TurnBegin(GameUpdate):
    turn_id: int
    player: PlayerColor


@dataclass(frozen=True)
class TurnEnd(GameUpdate):
    turn_id: int
    player: PlayerColor
    action: object


@dataclass(frozen=True)
class BoardUpdate(GameUpdate):
    board: Board


@dataclass(frozen=True)
class PlayerError(GameUpdate):
    message: str


@dataclass(frozen=True)
class GameEnd(GameUpdate):
    winner: object


@dataclass(frozen=True)
class UnhandledError(GameUpdate):
    message: str
