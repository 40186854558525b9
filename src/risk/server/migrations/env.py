"""Alembic's entry point for the risk server's schema.

At run time ``SqlStorage`` calls ``command.upgrade`` with an open connection inside its own transaction
(``config.attributes["connection"]``); for making a new revision by hand, a URL in the config's
``sqlalchemy.url`` (``risk.server.sql.alembic_config(url)``) works too.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from risk.server.sql import metadata

config = context.config


def run(connection: sa.Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things in place, batch mode copies the table instead.
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("the risk migrations run against a database, not as SQL scripts")

connection = config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: pass a connection, or a URL via risk.server.sql.alembic_config")
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            run(conn)
            conn.commit()
    finally:
        engine.dispose()
