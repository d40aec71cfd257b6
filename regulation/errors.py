"""The two ways a record can fail: it breaks the regulation, or it cannot be read at all."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Breach:
    """One breach of Portaria 135/91/M found in a jogo.

    `article` is the bare article reference ("5(a)(6)"); the message is written for a pit
    supervisor and starts with the article ("Art. 5(a)(6): ...").
    """

    code: str
    article: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "article": self.article, "message": self.message}


class RegulationError(Exception):
    """A jogo that breaks the regulation, with every breach found."""

    def __init__(self, breaches: list[Breach] | tuple[Breach, ...]):
        self.breaches = tuple(breaches)
        super().__init__("; ".join(b.message for b in self.breaches))


class MalformedRecord(ValueError):
    """A record that cannot be read: not JSON, a wrong type, an unknown tile, a missing field.

    `field` names the offending field in the portable record ("hand.melds[1].tiles").
    """

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)
