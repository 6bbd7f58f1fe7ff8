"""gamelab's stand-in for the COMP30024 course's `referee` package: only `referee.game`, the
types a Freckers agent imports. Written from the course's published agent interface."""
