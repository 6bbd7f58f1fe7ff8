"""The course's exceptions (as this test package gives them)."""


class IllegalActionException(Exception):
    pass
