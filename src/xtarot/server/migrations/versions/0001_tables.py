"""The tables of the first web server: tables, their actions, settings and chat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    """Databases made before migrations (by ``create_all``) may have it already."""
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("xtarot_tables"):
        op.create_table(
            "xtarot_tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("deals", sa.Text, nullable=False),
            sa.Column("seats", sa.Text, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
            sa.Column("finished", sa.Boolean, nullable=False),
            sa.Column("result", sa.Text, nullable=True),
        )
    if _missing("xtarot_actions"):
        op.create_table(
            "xtarot_actions",
            sa.Column(
                "table_id", sa.String(32), sa.ForeignKey("xtarot_tables.id"), primary_key=True
            ),
            sa.Column("n", sa.Integer, primary_key=True),
            sa.Column("text", sa.String(200), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )
    if _missing("xtarot_table_settings"):
        op.create_table(
            "xtarot_table_settings",
            sa.Column(
                "table_id", sa.String(32), sa.ForeignKey("xtarot_tables.id"), primary_key=True
            ),
            sa.Column("data", sa.Text, nullable=False),
            sa.Column("listed", sa.Boolean, nullable=False),
        )
    if _missing("xtarot_chat"):
        op.create_table(
            "xtarot_chat",
            sa.Column(
                "table_id", sa.String(32), sa.ForeignKey("xtarot_tables.id"), primary_key=True
            ),
            sa.Column("n", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("name", sa.String(64), nullable=True),
            sa.Column("text", sa.String(400), nullable=True),
            sa.Column("phrase", sa.String(32), nullable=True),
            sa.Column("at", sa.Float, nullable=False),
        )


def downgrade() -> None:
    for name in ("xtarot_chat", "xtarot_table_settings", "xtarot_actions", "xtarot_tables"):
        op.drop_table(name)
