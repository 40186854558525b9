"""risk: the RISK world-conquest board game as a Python library."""
