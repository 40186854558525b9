"""Quick match (docs/web.md, "Quick match"): a signed-in player waits in a queue and is put in a rated
game with players near their rating. ``queue``: the paces, the range and the groups (pure); ``store``:
the queue in the game database; ``service``: ``QuickMatch``, the matching every process runs; ``mail``:
a days game's e-mail subscriptions."""
