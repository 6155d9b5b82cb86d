"""Alembic's entry point: migrations run on the connection the server hands over.

Alembic executes this file; importing it otherwise (pytest's doctest collection does)
runs nothing."""

from __future__ import annotations

from alembic import context


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:  # `alembic` run by hand: connect to sqlalchemy.url
        from sqlalchemy import create_engine

        engine = create_engine(context.config.get_main_option("sqlalchemy.url") or "sqlite://")
        with engine.begin() as connection:
            context.configure(connection=connection, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # run by Alembic, not merely imported
    run_migrations()
