from .cli import vision

vision(prog_name="python -m vision")
