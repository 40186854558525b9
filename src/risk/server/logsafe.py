"""Logs never hold a secret (docs/reliability.md, "Bad input and security").

The server itself logs no token, hand, seed or message content. Three things around it could:

- the websockets library, at ``--log-level debug``, logs every frame and header as it crosses the
  wire (through uvicorn's logger), and the first frame of a connection is ``hello`` with the seat's
  token;
- urllib3, below INFO, logs each request's path, and a Web Push endpoint's path is a seat's secret
  (risk.server.notify.push);
- any line that quotes a request (a library's error message, a future log line) may hold an
  ``Authorization: Bearer`` header or a ``"token"`` field.

:class:`HideSecrets` drops the first two kinds of line and blanks the secret in the third. ``risk serve``
puts it on every handler it logs through (its own and uvicorn's).
"""

from __future__ import annotations

import copy
import logging
import os
import re
from typing import Any

WIRE_LIBRARY = f"{os.sep}websockets{os.sep}"
SECRET = re.compile(
    r"""(?ix)
    (bearer\s+ | ["']?token["']?\s*[:=]\s*["']?)   # an Authorization header, a token field
    [A-Za-z0-9_\-.~+/=]{8,}                         # its value
    """
)


class HideSecrets(logging.Filter):
    """Drops the websockets library's wire dumps and urllib3's request lines (debug lines below
    INFO), and blanks the value of any bearer header or token field in what is left."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.INFO and (
            WIRE_LIBRARY in record.pathname or record.name.startswith("urllib3")
        ):
            return False
        message = record.getMessage()
        hidden = SECRET.sub(r"\1[hidden]", message)
        if hidden != message:
            record.msg, record.args = hidden, ()
        return True


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging setup, with :class:`HideSecrets` on each of its handlers."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["hide_secrets"] = {"()": HideSecrets}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("hide_secrets")
    return config


def hide_secrets_everywhere() -> None:
    """Put :class:`HideSecrets` on the root logger's handlers (``logging.basicConfig``'s)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, HideSecrets) for f in handler.filters):
            handler.addFilter(HideSecrets())


__all__ = ["HideSecrets", "hide_secrets_everywhere", "uvicorn_log_config"]
