"""What the ledger's tests share: the mark of a test that only PostgreSQL's triggers can pass,
and a change made to the database behind the application's back."""
from __future__ import annotations

import pytest
from django.db import connection

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="the database-level guarantees are PostgreSQL's; CI runs them there")


def behind_the_applications_back(sql: str, params=()):
    """Change the database directly, as someone with the database owner's rights could."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")  # triggers off (superuser only)
        cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = origin")
