"""Many games without a front end: bot-only games, tournaments, batch simulation, and where they run."""
