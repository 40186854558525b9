"""What the routes share, given to them with FastAPI's ``Depends``: the app's game master, its hub, its
social side, its rate limits and its cache of summaries (each made once by ``create_app`` and kept in
``app.state``), and the ``Authorization`` header that carries a seat's token."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from risk.server.boards import BoardJobs
from risk.server.fairplay.desk import FairPlay
from risk.server.hub import Hub
from risk.server.limits import Guard
from risk.server.master import GameMaster
from risk.server.social import Social


def _from_state(name: str) -> Callable[[HTTPConnection], Awaitable[Any]]:
    """The dependency that gives ``app.state.<name>``. Async: FastAPI calls it in the event loop (a
    plain function would go through a worker thread on every request)."""

    async def shared(connection: HTTPConnection) -> Any:
        return getattr(connection.app.state, name)

    return shared


MasterDep = Annotated[GameMaster, Depends(_from_state("master"))]
HubDep = Annotated[Hub, Depends(_from_state("hub"))]
SocialDep = Annotated[Social, Depends(_from_state("social"))]
GuardDep = Annotated[Guard, Depends(_from_state("guard"))]
FairPlayDep = Annotated[FairPlay, Depends(_from_state("fairplay"))]
BoardJobsDep = Annotated[BoardJobs, Depends(_from_state("board_jobs"))]
# Finished games' summaries as JSON, newest last: they never change (risk.server.api.after).
SummariesDep = Annotated[dict[str, bytes], Depends(_from_state("summaries"))]

# The header as the client sent it; a route reads its token with risk.server.auth.bearer where the
# token is needed, so a bad header is refused after the request's body and parameters are checked.
Authorization = Annotated[str | None, Header()]
