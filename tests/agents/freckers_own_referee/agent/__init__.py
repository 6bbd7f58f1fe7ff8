from .program import Agent
