"""gamelab's stand-in for the COMP 424 course's `agents` package: just the `Agent` base class
a course agent extends (agents/agent.py). Written from the course's published interface."""
