"""gamelab's stand-in for the course's `store` module: the registry that
`@register_agent("name")` fills."""
AGENT_REGISTRY = {}


def register_agent(agent_name=""):
    def decorator(cls):
        if agent_name in AGENT_REGISTRY:
            raise AssertionError("Agent {} is already registered.".format(AGENT_REGISTRY[agent_name]))
        AGENT_REGISTRY[agent_name] = cls
        return cls

    return decorator
