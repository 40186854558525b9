"""The web server: the game master, storage, and the HTTP and websocket app (docs/web.md)."""
