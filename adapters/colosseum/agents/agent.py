"""The base class of a Colosseum Survival agent, as the course's student_agent.py extends it:
`step(chess_board, my_pos, adv_pos, max_step)` returns `((row, col), direction)`."""


class Agent:
    def __init__(self):
        self.name = "DummyAgent"
        self.autoplay = True

    def __str__(self):
        return self.name

    def step(self, chess_board, my_pos, adv_pos, max_step):
        pass
