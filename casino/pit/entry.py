"""What the dealer still has to enter in a jogo's form before the engine can judge it: a
half-filled form is not an error, and the table's preview says what is missing in people's
words. Pure: it reads only the record the form builds.
"""
from __future__ import annotations

from django.utils.translation import gettext_noop

from .errors import Problem


def still_to_enter(*, record: dict) -> tuple[Problem, ...]:
    """What the dealer has not yet entered in the jogo `record` his form builds (pit/forms.py):
    a half-filled form is not an error, and the preview says what is missing in people's words
    rather than what the engine cannot read. Empty when nothing is missing (a value of the wrong
    kind is not missing: the engine says what is wrong with it); `field` names the record's field
    (forms.problem_field finds the form's)."""
    missing = []

    def lacks(field: str, template: str, **params) -> None:
        missing.append(Problem.of("missing", None, template, field, **params))

    def blank(value) -> bool:
        return value is None or (isinstance(value, str) and not value.strip())

    def part(value) -> dict:
        return value if isinstance(value, dict) else {}

    result = record.get("result")
    if result == "win":
        hand = part(record.get("hand"))
        if blank(record.get("winner")):
            lacks("winner", gettext_noop("choose the winner"))
        if blank(hand.get("concealed")):
            lacks("hand.concealed", gettext_noop("enter the concealed tiles"))
        if blank(hand.get("winning_tile")):
            lacks("hand.winning_tile", gettext_noop("enter the winning tile"))
        melds = hand.get("melds")
        for index, meld in enumerate(melds if isinstance(melds, list) else ()):
            if blank(part(meld).get("kind", "")):
                lacks(f"hand.melds[{index}].kind", gettext_noop("choose the kind of meld {n}"), n=index + 1)
            if blank(part(meld).get("tiles", "")):
                lacks(f"hand.melds[{index}].tiles", gettext_noop("enter the tiles of meld {n}"), n=index + 1)
        if isinstance(record.get("pay_all"), dict):  # Art. 10: the liable player and the article together
            if blank(record["pay_all"].get("seat")):
                lacks("pay_all.seat", gettext_noop("choose the liable player of the pay-all (包輸)"))
            if blank(record["pay_all"].get("article")):
                lacks("pay_all.article", gettext_noop("choose the article of the pay-all (包輸)"))
    elif result == "false_win" and "false_win" in record and blank(part(record["false_win"]).get("seat")):
        lacks("false_win.seat", gettext_noop("choose the offender"))  # Art. 10(a)(7)–(8), 10(b)(3)
    return tuple(missing)
