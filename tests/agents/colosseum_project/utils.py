"""A course project's own `utils` (written for gamelab's tests)."""
from contextlib import contextmanager

PROJECT_UTILS = True


@contextmanager
def all_logging_disabled(highest_level=50):
    yield
