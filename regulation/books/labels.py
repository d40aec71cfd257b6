"""The English label of every code a book result uses (points, doubles, limit hands, errors),
marked for translation (casino/terms)."""
from __future__ import annotations

LABELS: dict[str, str] = {}
