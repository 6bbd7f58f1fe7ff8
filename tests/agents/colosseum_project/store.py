"""A course project's own `store` (written for gamelab's tests): the adapter must use this one."""
PROJECT_STORE = True
AGENT_REGISTRY = {}


def register_agent(agent_name=""):
    def decorator(cls):
        assert agent_name not in AGENT_REGISTRY, agent_name
        AGENT_REGISTRY[agent_name] = cls
        return cls

    return decorator
