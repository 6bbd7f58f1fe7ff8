"""A student's own copy of the course referee package (written for gamelab's tests)."""
