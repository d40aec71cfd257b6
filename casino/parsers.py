"""The API reads JSON bodies only, and only JSON a record could be: nested at most
MAX_DEPTH deep (a portable record is four), with no NUL character in any text (PostgreSQL
cannot store one) and no lone surrogate (JSON may write "\\ud800", which is half of a character
and no text: UTF-8 cannot encode it, so no column, hash or answer could hold it). Anything else
is a 400 before any view sees it."""
from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 20
LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")  # a pair ("\ud83c\udc04") is decoded into one character


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply (at most %(depth)d levels).") % {"depth": MAX_DEPTH},
                             code="too_deep") from None
        check(data)
        return data


def check(data) -> None:
    """ParseError when `data` nests deeper than MAX_DEPTH or holds a NUL character or a lone
    surrogate in a text or a key (walked without recursion, since the point is to refuse what is
    too deep)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise ParseError(_("Text may not contain the NUL character (\\u0000)."), code="nul_character")
            if not value.isascii() and LONE_SURROGATE.search(value):
                raise ParseError(_("Text may not contain a lone surrogate (\\ud800 to \\udfff): it is half of a "
                                   "character."), code="lone_surrogate")
        elif isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise ParseError(_("The JSON is nested too deeply (at most %(depth)d levels).") % {
                    "depth": MAX_DEPTH}, code="too_deep")
            if isinstance(value, dict):
                pending.extend((key, depth) for key in value)
                pending.extend((item, depth + 1) for item in value.values())
            else:
                pending.extend((item, depth + 1) for item in value)
