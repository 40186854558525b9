"""Ratings of rated games (docs/web.md, "Ratings"): OpenSkill's Plackett-Luce model over the finishing
order, one rating per game family and pace. ``model``: the finishing order and the update (pure);
``store``: the ratings, their history and the games rated, in the game database; ``hooks``: the
master's plug-in that rates a rated game once it is over."""
