"""gamelab's stand-in for the course's `utils` module: `all_logging_disabled`, a context in which
logging is off. A course project's own `utils.py` is used instead when the agent ships in one."""
import logging
from contextlib import contextmanager


@contextmanager
def all_logging_disabled(highest_level=logging.CRITICAL):
    """Turns logging off up to `highest_level` inside the `with` block, then back as it was."""
    before = logging.root.manager.disable
    logging.disable(highest_level)
    try:
        yield
    finally:
        logging.disable(before)
