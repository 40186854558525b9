"""The web app's routes, one ``APIRouter`` per part (``risk.server.app`` includes them in this order):

- :mod:`.pages`: the lobby, a game's board, its summary, the replay page;
- :mod:`.meta`: editions, games, rule options and bots; the boards; odds;
- :mod:`.games`: creating, listing, joining and watching games, and moves;
- :mod:`.seats`: resigning, a stand-in bot for a seat, the host replacing an absent player;
- :mod:`.mine`: "Your games", the seats a browser holds, in one request;
- :mod:`.after`: a finished game's record and summary, and an uploaded record's;
- :mod:`.websocket`: live play, one connection per page;
- :mod:`.fastplay`: blitz and undo;
- :mod:`.social`: chat, rematches, house rules.

What the routes share (the game master, the hub, the social side, the rate limits...) comes from
:mod:`.deps` through ``Depends``.
"""
