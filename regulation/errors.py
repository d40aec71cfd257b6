"""The two ways a record can fail: it breaks the regulation, or it cannot be read at all.

Each carries its English message and what it was made from, a `template` and its `params`,
so that a screen can show it in Portuguese or Chinese (casino/terms): every template is
marked with `gettext_noop`, the keyword xgettext (Django's makemessages) extracts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def gettext_noop(text: str) -> str:
    """Mark `text` as a message to translate; it stays English here (no Django in the engine)."""
    return text


@dataclass(frozen=True, slots=True)
class Breach:
    """One breach of Portaria 135/91/M found in a jogo, or any other reason a request is refused
    (the casino's pit refuses with this type too, and names the request's `field` it concerns).

    `article` is the bare article reference ("5(a)(6)"), None when no article applies; the
    message is written for a pit supervisor. The engine's messages start with the article
    ("Art. 5(a)(6): ..."): they are "Art. {article}: " + `template`.format(**`params`).
    """

    code: str
    article: str | None
    message: str
    template: str = field(default="", compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False)
    field: str | None = None

    @classmethod
    def of(cls, code: str, article: str | None, template: str, field: str | None = None, *,
           cite: bool = False, **params: Any) -> Breach:
        """The message is `template` filled in, after "Art. {article}: " when it `cite`s the article."""
        message = template.format(**params)
        return cls(code, article, f"Art. {article}: {message}" if cite else message, template, params, field)

    def as_dict(self) -> dict[str, str | None]:
        data: dict[str, str | None] = {"code": self.code, "article": self.article, "message": self.message}
        if self.field is not None:
            data["field"] = self.field
        return data


class RegulationError(Exception):
    """A jogo that breaks the regulation, with every breach found."""

    def __init__(self, breaches: list[Breach] | tuple[Breach, ...]):
        self.breaches = tuple(breaches)
        super().__init__("; ".join(b.message for b in self.breaches))


class MalformedRecord(ValueError):
    """A record that cannot be read: not JSON, a wrong type, an unknown tile, a missing field.

    `field` names the offending field in the portable record ("hand.melds[1].tiles"); the
    message is `template`.format(**`params`).
    """

    article = None  # no article: the record is not read far enough to break one

    def __init__(self, field: str, template: str, /, **params: Any):
        self.field = field
        self.template = template
        self.params = params
        self.message = message = template.format(**params)
        super().__init__(f"{field}: {message}" if field else message)
