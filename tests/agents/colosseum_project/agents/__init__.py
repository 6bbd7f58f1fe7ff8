"""A course project's `agents` package (written for gamelab's tests): like the course template,
it imports its agents, so importing the package registers them."""
from .agent import Agent
from .student_agent import StudentAgent
