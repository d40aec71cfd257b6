"""The API's own serializer fields: what a request may write, held to the same rules as the
portable record."""
from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from regulation.record import MAX_AMOUNT

# docs/record-format.md, "Amounts": a plain decimal of whole units, at most two decimals, all zero.
# [0-9] and fullmatch, not \d and $: no other script's digits, no trailing newline.
WHOLE_UNITS = re.compile(r"[0-9]{1,13}(\.0{1,2})?")


class WholeUnitsField(serializers.IntegerField):
    """An amount of money in whole currency units, as the portable record takes one: a JSON
    integer, or a string of the digits 0–9 with at most two decimals, all zero ("5000",
    "5000.00"). Anything else a Python int() would read is refused: "1_000", "+5", " 5",
    digits of other scripts ("١٠"), a JSON float (5.0) and a boolean. Between `min_value` (1
    unless said) and `max_value` (MAX_AMOUNT, the engine's limit, unless said); min_value=None
    lets a negative integer through, for a service that refuses it with its own words."""

    default_error_messages = {
        "invalid": _("Write a whole number of currency units with the digits 0–9 only, e.g. 5000."),
    }

    def __init__(self, *, min_value: int | None = 1, max_value: int | None = MAX_AMOUNT, **kwargs):
        bounds = f", {min_value} to {max_value}" if None not in (min_value, max_value) else ""
        kwargs.setdefault("help_text", f"whole currency units{bounds}: an integer, or a string of the digits 0–9 as "
                                       f"the portable record writes amounts (\"5000\", \"5000.00\")")
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_internal_value(self, data) -> int:
        if type(data) is int:  # not a bool, which is an int too
            return data
        if type(data) is str and WHOLE_UNITS.fullmatch(data):
            return int(data.partition(".")[0])
        self.fail("invalid")
