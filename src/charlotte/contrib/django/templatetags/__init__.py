"""charlotte's template tag library, ``{% load charlotte %}``."""
