"""Player identities, ratings and rated results.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xtarot_players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_table(
        "xtarot_ratings",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "xtarot_results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("xtarot_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("player", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("before", sa.Float, nullable=True),
        sa.Column("after", sa.Float, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_xtarot_results_player", "xtarot_results", ["player"])


def downgrade() -> None:
    op.drop_index("ix_xtarot_results_player", "xtarot_results")
    for name in ("xtarot_results", "xtarot_ratings", "xtarot_players"):
        op.drop_table(name)
