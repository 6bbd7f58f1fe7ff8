"""The exceptions a COMP30024 agent imports (`referee.game.exceptions`), written for gamelab
from the course's published interface."""


class IllegalActionException(Exception):
    """An action that the rules do not allow, with the player who tried it."""

    def __init__(self, message, player=None):
        super().__init__(message)
        self.player = player
