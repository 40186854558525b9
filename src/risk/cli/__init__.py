"""The `risk` command: `main` holds it, with `risk board`, `risk odds` and `risk tournament` beside it."""
