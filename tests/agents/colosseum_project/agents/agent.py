"""A course project's own `agents.agent` (written for gamelab's tests)."""


class Agent:
    def __init__(self):
        self.name = "DummyAgent"
        self.autoplay = False

    def __str__(self):
        return self.name
