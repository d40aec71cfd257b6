"""Template filters of the pit's screens: tiles drawn as tiles, and names in the user's language."""
from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import pgettext

from casino.pit import privacy
from casino.terms import vocabulary
from regulation.tiles import TileNotationError, parse_tiles, tile_code

register = template.Library()

SUIT_MARK = {"m": "萬", "p": "筒", "s": "索"}
HONOUR_FACE = {"1": "東", "2": "南", "3": "西", "4": "北", "5": "", "6": "發", "7": "中"}


def _face(code: str) -> tuple[str, str]:
    """(number, mark) drawn on a tile: 5 and 萬 for 5m; nothing and 中 for 7z."""
    digit, suit = code[0], code[1]
    if suit == "z":
        return "", HONOUR_FACE[digit]
    return digit, SUIT_MARK[suit]


@register.filter
def tile(code: str):
    """One tile drawn as a tile: the face as printed on the tile, the name for readers."""
    number, mark = _face(code)
    return format_html('<span class="tile t-{} s-{}" title="{}" aria-label="{}"><b>{}</b><i>{}</i></span>',
                       code, code[1], vocabulary.tile_name(code), vocabulary.tile_name(code), number, mark)


@register.filter
def tiles(value):
    """Tiles from notation ("123m55z") or a list of codes, drawn in order; text that is not
    notation is shown as typed."""
    if not value:
        return ""
    if isinstance(value, str):
        try:
            codes = [tile_code(t) for t in parse_tiles(value)]
        except TileNotationError:
            return value
    else:
        codes = list(value)
    return format_html('<span class="tiles">{}</span>', format_html_join("", "{}", ((tile(c),) for c in codes)))


# The regulation's words in the user's language (casino/terms), as filters: {{ jogo.result|result_name }}.
for _name in ("localise", "result_name", "variant_name", "round_name", "seat_name", "meld_kind_name", "article_name",
              "articles_name", "cited", "revision_reason", "tier_label"):
    register.filter(_name, getattr(vocabulary, _name))


@register.filter
def problem_field(problem) -> str:
    """The name of the dealer's form field a problem is about ("" for none), for the screen's script."""
    from casino.pit.forms import problem_field as field_of

    return field_of(problem) or ""


@register.filter
def tile_of_wind(wind: str):
    """The wind's own tile (東 for East), drawn as a tile."""
    return tile(f"{'ESWN'.index(wind) + 1}z") if wind else ""


def _names(context, jogo) -> dict[int, str]:
    """The jogo's players by chair, as the reader (the request's user) may see them at its table:
    masked for a dealer (casino/pit/privacy.py)."""
    request = context.get("request")
    plain = request is not None and privacy.sees_names(request.user, jogo.table_id)
    return {player.chair: player.name if plain else privacy.mask_name(player.name)
            for player in jogo.game.players.select_related("patron")}


@register.simple_tag(takes_context=True)
def chairs_of(context, jogo) -> list[dict]:
    """Each seated chair of a recorded jogo: player, seat wind, capital before and after."""
    names = _names(context, jogo)
    state = jogo.progress
    return [{"chair": chair, "name": names.get(chair, ""), "seat": state.seat_of(chair),
             "seat_name": vocabulary.seat_name(state.seat_of(chair)),
             "before": jogo.capital_before[chair], "after": jogo.capital_after[chair]}
            for chair in sorted(names, key=lambda c: (c - state.banker) % 4)]


@register.simple_tag(takes_context=True)
def payments_of(context, jogo) -> list[dict]:
    """The recorded jogo's payments, each side named by seat wind and player."""
    names = _names(context, jogo)

    def who(seat: str) -> str:
        return vocabulary.seat_player(seat, banker_chair=jogo.banker_chair, names=names)

    return [{"from": who(p["from"]), "to": who(p["to"]), "amount": p["amount"]} for p in jogo.outcome["payments"]]


# Art. 10 on a receipt: the article as the regulation's language cites it, and what it covers.
register.filter("article_name", vocabulary.article_name)
register.filter("pay_all_article_text", vocabulary.pay_all_article_text)


@register.simple_tag(takes_context=True)
def seat_player(context, jogo, seat: str) -> str:
    """Who sat at `seat` ("E"…"N") in the recorded jogo: seat wind and player, "West · Carla"."""
    names = _names(context, jogo)
    return vocabulary.seat_player(seat, banker_chair=jogo.banker_chair, names=names)


@register.filter
def total_paid(payments) -> int:
    """The money that changes hands in a jogo: the sum of its payments ({"amount": …} each,
    whole units); 0 when nobody pays."""
    return sum(payment["amount"] for payment in payments or ())


@register.simple_tag
def false_win_article(jogo) -> str:
    """Where the regulation voids a false win («jogo nulo», 詐糊) and sets the offender's
    compensation: Art. 10(a)(7)–(8) in the conventional game, Art. 10(b)(3) in the simplified."""
    if jogo.record.get("variant") == "simplified":
        return vocabulary.article_name("10(b)(3)")
    return f"{vocabulary.article_name('10(a)(7)')}–(8)"


@register.simple_tag
def citing(article: str, text: str) -> str:
    """`text` after the article (as `article_name` gives it) it applies, as the language writes
    it: "Art. 10(a)(3): …", "第十條(甲)(3)：…"."""
    return pgettext("an error message citing its article", "{article}: {message}").format(article=article,
                                                                                          message=text)


@register.filter
def rule_set_name(code: str, version: int) -> str:
    """A rule set on a page: its code as code (people copy it), then its version in words."""
    return format_html(vocabulary.gettext("{code}, version {version}"), code=format_html("<code>{}</code>", code),
                       version=version)


@register.filter
def commission_limited(jogo) -> bool:
    """I-8: a won jogo whose commission is below its tier's (under the rule set that scored it),
    because the winner received less."""
    return jogo.result == "win" and jogo.commission < jogo.rules.commission_for(jogo.table.variant, jogo.table.stake)


@register.filter
def refusal_reasons(refusal) -> str:
    """Why a record was refused, in the active language: its errors as the service gave them,
    joined by "; " (an error stored without its template reads as stored, in English)."""
    from casino.pit.selectors import refusal_problems

    return "; ".join(vocabulary.localise(problem) for problem in refusal_problems(refusal))
