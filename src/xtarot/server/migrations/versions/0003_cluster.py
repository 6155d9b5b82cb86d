"""Server processes sharing one database, and the lease of each live table.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xtarot_processes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("address", sa.String(255), nullable=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "xtarot_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("xtarot_tables.id"), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_xtarot_leases_owner", "xtarot_leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_xtarot_leases_owner", "xtarot_leases")
    op.drop_table("xtarot_leases")
    op.drop_table("xtarot_processes")
