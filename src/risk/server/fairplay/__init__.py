"""Fair play (docs/web.md, "Fair play"; issue 39): one person, one seat of a rated game (one account and
one browser a seat); blocks between accounts; a seat's mutes; chat lines reported to a game's host; the
host's bans.

``rules``: the checks the game master makes itself (no store); ``store``: mutes, reports and bans in the
game database (blocks are the accounts' store's: risk.server.accounts.store); ``desk``: what the web app
asks for, and the chat's filter.
"""
