"""The dealer's forms: seating a game, and a jogo as the dealer enters it at the table.

`JogoForm` only gathers what the dealer entered and builds the portable record
(docs/record-format.md) from it and from what the ledger fixes (variant, stake, round wind, capital:
`service.record_header`). Every rule is checked by the engine and the recording service, so
the screen shows exactly the errors that saving would give, each with its article.
"""
from __future__ import annotations

import re

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from casino.limits import NAME_MAX_LENGTH
from casino.terms.vocabulary import article_name, localise, pay_all_article_text, seat_name
from regulation.record import CONDITIONS as ENGINE_CONDITIONS, MAX_AMOUNT, PAY_ALL_ARTICLES as ENGINE_PAY_ALL_ARTICLES
from regulation.tiles import CONVENTIONAL, KINDS, SIMPLIFIED, tile_code

from .capital import maximum_capital, minimum_capital
from .errors import Refused
from .models import Table
from .witness import witness_from

RESULTS = [("win", _("Win")), ("draw", _("Draw (wall exhausted)")), ("false_win", _("False win"))]
MELD_KINDS = [("", _("—")), ("chow", _("Chow")), ("pong", _("Pong")), ("kong", _("Open kong")),
              ("concealed_kong", _("Concealed kong"))]
# The engine's conditions of a win (regulation.record.CONDITIONS), in the order the form lists
# them; a condition the engine adds and the form does not label fails here, at import.
_CONDITION_LABELS = {"last_tile": _("Last tile"), "robbing_kong": _("Robbing a kong"),
                     "kong_replacement": _("Kong replacement"), "kong_upon_kong": _("Kong upon kong"),
                     "heavenly": _("Heavenly win"), "earthly": _("Earthly win")}
CONDITIONS = [(code, _CONDITION_LABELS[code]) for code in sorted(ENGINE_CONDITIONS, key=list(_CONDITION_LABELS).index)]
# Art. 10(a) is the conventional game's pay-all, 10(b) the simplified game's (the engine's articles).
PAY_ALL_ARTICLES = {
    CONVENTIONAL: [article for article in ENGINE_PAY_ALL_ARTICLES if article.startswith("10(a)")],
    SIMPLIFIED: [article for article in ENGINE_PAY_ALL_ARTICLES if article.startswith("10(b)")],
}
# The pay-all article as the choice names it: its number and a few words, so that the choice is
# no wider than a tablet; the article's full text (vocabulary.pay_all_article_text) is shown
# under it.
_PAY_ALL_SHORT = {
    "10(a)(1)": pgettext_lazy("pay-all article, in a few words", "pure one suit, 3+ exposed"),
    "10(a)(2)": pgettext_lazy("pay-all article, in a few words", "pure one suit, 4th set"),
    "10(a)(3)": pgettext_lazy("pay-all article, in a few words", "big dragons or winds"),
    "10(a)(4)": pgettext_lazy("pay-all article, in a few words", "kept the last honour"),
    "10(a)(5)": pgettext_lazy("pay-all article, in a few words", "not ready, broke a set"),
    "10(a)(6)": pgettext_lazy("pay-all article, in a few words", "ready, broke the hand"),
    "10(b)(1)": pgettext_lazy("pay-all article, in a few words", "kept the last green dragon"),
    "10(b)(2)": pgettext_lazy("pay-all article, in a few words", "ready, broke a triplet"),
}
PAY_ALL_SHORT = {article: _PAY_ALL_SHORT[article] for article in ENGINE_PAY_ALL_ARTICLES}  # each engine article
# The keys of the dealer's screen (table.js): Alt and a letter goes to a field (a
# result's Alt+R moves to the next result, Save's Alt+S saves), and in a seat's choice the
# seat's letter chooses it. Each language may give a seat its own letter (Oeste: O); the
# English letters work in every language.
SEAT_KEYS = {"E": pgettext_lazy("the key that chooses the seat East", "E"),
             "S": pgettext_lazy("the key that chooses the seat South", "S"),
             "W": pgettext_lazy("the key that chooses the seat West", "W"),
             "N": pgettext_lazy("the key that chooses the seat North", "N")}


def key_attrs(letter: str) -> dict:
    """The attributes of a control reached by Alt+`letter` (table.js reads data-key)."""
    return {"data-key": letter.lower(), "aria-keyshortcuts": f"Alt+{letter.upper()}"}


def seat_choice(**attrs) -> forms.Select:
    """A choice of seat: the seat's letter chooses it, ⌫ chooses none (table.js)."""
    return forms.Select(attrs={"data-seat-choice": "", "aria-describedby": "seat-keys", **attrs})


MELD_ROWS = 4  # Art. 4(a): at most four sets are declared
FORM_FIELD = {  # the record's field (MalformedRecord.field) → the form's field
    "winner": "winner", "discarder": "discarder", "hand": "concealed", "hand.concealed": "concealed",
    "hand.winning_tile": "winning_tile", "declared_fan": "declared_fan", "pay_all": "pay_all_seat",
    "pay_all.seat": "pay_all_seat", "pay_all.article": "pay_all_article", "false_win": "false_win_seat",
    "false_win.seat": "false_win_seat", "conditions": "conditions", "claimants": "claimants",
    "pay_all.broken_set": "pay_all_broken_set",
}
MELD_FIELD = re.compile(r"hand\.melds\[(\d)\]")
BREACH_FIELD = {  # an engine breach (Breach.code) → the form's field it is about
    "discarder_is_winner": "discarder", "winner_declined_pong": "winner", "hand_size": "concealed",
    "hand_shape": "concealed", "not_a_winning_hand": "concealed", "fifth_copy": "concealed",
    "tile_not_in_variant": "concealed", "conditions_conflict": "conditions", "heavenly": "conditions",
    "earthly": "conditions", "robbing_kong": "conditions", "claim_priority": "claimants",
    "saw_tiles_kong": "saw_tiles", "pay_all_seat": "pay_all_seat", "pay_all_article": "pay_all_article",
    "pay_all_trigger": "pay_all_article", "pay_all_exempt": "pay_all_seat",
    "meld_shape": "meld_tiles_{index}", "meld_concealed": "meld_kind_{index}", "simplified_claim": "meld_kind_{index}",
}


def tiles_input(kind: str, **attrs) -> forms.TextInput:
    """A text input for tiles in notation, which the tile picker also fills ("one" or "many")."""
    return forms.TextInput(attrs={"data-tiles": kind, "autocomplete": "off", "autocapitalize": "off",
                                  "spellcheck": "false", **attrs})


def whole_amount(**kwargs) -> forms.IntegerField:
    """An amount of money as people type it: a whole number of patacas ("12.5" is refused), at
    least 1."""
    return forms.IntegerField(min_value=1, error_messages={"invalid": _("Enter a whole number of patacas.")},
                              widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}), **kwargs)


# A seated player's field as the seating service names it: "players[<index>].<capital|patron|name>".
PLAYER_FIELD = re.compile(r"players\[(\d)\]\.(capital|patron|name)")


def palette(variant: str) -> list[str]:
    """The tiles of the variant (Art. 2) in the order of the tile picker: números, círculos,
    bambus, winds, dragons."""
    return [tile_code(tile) for tile in sorted(KINDS[variant])]


class SeatForm(forms.Form):
    """Seating a game (Art. 3): per chair a player and his capital at stake, and the first
    banker's chair. The simplified game may leave chairs empty (2 to 4 players).

    A player is picked from the casino's players (the name's lookup, static/pit/players.js, fills
    the hidden `patron_<chair>`) or, a name not picked, made a new one. The capital's limits are
    the casino's rule C-1 (casino/pit/capital.py), which the service applies. When the person
    seating does not witness cash himself (a dealer: no pit.move_money), the supervisor who
    witnesses it confirms the seating with his username and password (`witness`)."""

    first_banker = forms.TypedChoiceField(label=_("First banker"), coerce=int,
                                          choices=[(c, c + 1) for c in range(4)], initial=0)

    def __init__(self, *args, table: Table | None = None, request: HttpRequest | None = None,
                 witness_needed: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.table, self.request, self.witness_needed = table, request, witness_needed
        self.witness_user = None  # the supervisor who confirmed the seating (`clean`)
        for chair in range(4):
            self.fields[f"name_{chair}"] = forms.CharField(label=_("Player"), max_length=NAME_MAX_LENGTH,
                                                           required=False)
            self.fields[f"patron_{chair}"] = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
            self.fields[f"capital_{chair}"] = whole_amount(label=_("Capital"), max_value=MAX_AMOUNT, required=False)
        if witness_needed:
            self.fields["witness"] = forms.CharField(label=_("Witnessing supervisor"), max_length=150)
            self.fields["witness_password"] = forms.CharField(
                label=_("His password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "off"}))

    def chairs(self):
        return [(chair, self[f"name_{chair}"], self[f"patron_{chair}"], self[f"capital_{chair}"])
                for chair in range(4)]

    def minimums(self) -> dict[int, int]:
        """The minimum capital of a seat (rule C-1) for each number of players the table seats."""
        if self.table is None:
            return {}
        counts = (4,) if self.table.variant == CONVENTIONAL else (4, 3, 2)
        return {players: minimum_capital(self.table, players) for players in counts}

    def maximum(self) -> int:
        return maximum_capital()

    def clean(self):
        data = super().clean()
        if "witness" in self.fields and data.get("witness") and data.get("witness_password"):
            try:
                self.witness_user = witness_from(self.request, data["witness"], data["witness_password"])
            except Refused as refused:
                for problem in refused.problems:
                    self.add_error("witness", localise(problem, field=False))
        return data

    def _seated(self) -> list[int]:
        data = self.cleaned_data
        return [chair for chair in range(4)
                if data.get(f"name_{chair}") or data.get(f"patron_{chair}") or data.get(f"capital_{chair}")]

    def players(self) -> list[dict]:
        """The seated chairs (a chair is seated when it has a player or a capital), as the service
        takes them: the player picked, or the name of a new one."""
        data = self.cleaned_data
        seated = []
        for chair in self._seated():
            player = {"chair": chair, "capital": data.get(f"capital_{chair}")}
            if data.get(f"patron_{chair}"):
                player["patron"] = data[f"patron_{chair}"]
            else:
                player["name"] = data.get(f"name_{chair}", "")
            seated.append(player)
        return seated

    def field_of(self, problem) -> str | None:
        """The form field a refused seating's problem is about: "players[1].capital" is the
        capital of the second seated chair; a player's patron or name is his name's field."""
        match = PLAYER_FIELD.fullmatch(problem.field or "")
        if match is None:
            return problem.field
        seated = self._seated()
        index = int(match.group(1))
        if index >= len(seated):
            return None
        part = "capital" if match.group(2) == "capital" else "name"
        return f"{part}_{seated[index]}"


class JogoForm(forms.Form):
    result = forms.ChoiceField(label=_("Result"), choices=RESULTS, initial="win", widget=forms.RadioSelect)
    winner = forms.ChoiceField(label=_("Winner"), required=False, widget=seat_choice(**key_attrs("w")))
    discarder = forms.ChoiceField(label=_("Discarder"), required=False, widget=seat_choice(**key_attrs("d")))
    concealed = forms.CharField(label=_("Concealed tiles"), required=False, max_length=120,
                                widget=tiles_input("many", **{"aria-describedby": "concealed-help"}),
                                help_text=_("Without the winning tile and without concealed kongs, e.g. 234m678p5s"))
    winning_tile = forms.CharField(label=_("Winning tile"), required=False, max_length=8,
                                   widget=tiles_input("one", **{"class": "short"}))
    conditions = forms.MultipleChoiceField(label=_("Conditions"), choices=CONDITIONS, required=False,
                                           widget=forms.CheckboxSelectMultiple)
    declared_fan = forms.TypedChoiceField(label=_("Declared grade (fán)"), coerce=int, empty_value=None,
                                          required=False, widget=forms.Select(attrs=key_attrs("g")))
    declined_pong = forms.MultipleChoiceField(label=_("Called pong and declined (Art. 9(a)(2))"), required=False,
                                              widget=forms.CheckboxSelectMultiple)
    saw_tiles = forms.MultipleChoiceField(label=_("Looked at another player's tiles (Art. 9(a)(3))"),
                                          required=False, widget=forms.CheckboxSelectMultiple)
    claimants = forms.MultipleChoiceField(label=_("Also claimed the discard to win (Art. 5(a)(6))"),
                                          required=False, widget=forms.CheckboxSelectMultiple)
    pay_all_seat = forms.ChoiceField(label=_("Pay-all (包輸): liable player"), required=False, widget=seat_choice())
    pay_all_article = forms.ChoiceField(label=_("Pay-all article"), required=False,
                                        widget=forms.Select(attrs={"aria-describedby": "pay-all-article-text"}))
    pay_all_broken_set = forms.ChoiceField(label=_("Broken set (Art. 10(a)(5))"), required=False, initial="pong",
                                           choices=[("pong", _("Pong")), ("chow", _("Chow"))])
    pay_all_live_tile = forms.BooleanField(label=_("The discarded honour had not been seen on the table"),
                                           required=False)
    false_win_seat = forms.ChoiceField(label=_("False win (詐糊): offender"), required=False, widget=seat_choice())
    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # The jogo number the screen showed: saving refuses another (the jogo was recorded meanwhile).
    number = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, seats: dict[str, str], variant: str, **kwargs):
        """`seats`: seat wind → label ("E · Ana") of the seated seats, in turn order."""
        super().__init__(*args, **kwargs)
        self.variant = variant
        choices = [(seat, label) for seat, label in seats.items()]
        self.fields["winner"].choices = [("", _("—"))] + choices
        self.fields["discarder"].choices = [("", _("Self-drawn"))] + choices
        for name in ("declined_pong", "saw_tiles", "claimants"):
            self.fields[name].choices = choices
        self.fields["pay_all_seat"].choices = [("", _("None"))] + choices
        self.fields["false_win_seat"].choices = [("", _("—"))] + choices
        self.fields["pay_all_article"].choices = [("", _("—"))] + [
            (article, f"{article_name(article)} · {PAY_ALL_SHORT[article]}")
            for article in PAY_ALL_ARTICLES[variant]]
        top = 2 if variant == "conventional" else 1  # Art. 6(a)(3), 6(b)
        self.fields["declared_fan"].choices = [("", _("—"))] + [(fan, fan) for fan in range(top + 1)]
        if variant != "conventional":
            del self.fields["declined_pong"]  # no pong is called in the simplified game, Art. 5(b)(3)
            del self.fields["pay_all_broken_set"]  # 10(a)(5) is conventional (I-12)
            self.fields["saw_tiles"].label = _("Looked at another player's tiles (Art. 9(b)(2))")
            self.fields["claimants"].label = _("Also claimed the discard to win (Art. 5(b)(5))")
        for row in range(MELD_ROWS if variant == "conventional" else 1):
            self.fields[f"meld_kind_{row}"] = forms.ChoiceField(label=_("Meld"), choices=MELD_KINDS, required=False)
            self.fields[f"meld_tiles_{row}"] = forms.CharField(
                label=_("Meld tiles"), required=False, max_length=16,
                widget=tiles_input("many", **{"aria-label": _("Tiles of meld %(n)s") % {"n": row + 1}}))

    def seat_keys(self) -> list[tuple[str, str, str]]:
        """(seat, its key, its name) of each seated seat, in turn order, for the keys' legend."""
        return [(seat, SEAT_KEYS[seat], seat_name(seat)) for seat, _label in self.fields["winner"].choices if seat]

    def pay_all_article_texts(self) -> list[tuple[str, str, bool]]:
        """(article, its full text, chosen) of each pay-all article of the variant: the screen
        shows the chosen one's text under the short choice (pit/_jogo_fields.html, table.js)."""
        chosen = self["pay_all_article"].value()
        return [(article, pay_all_article_text(article), article == chosen)
                for article in PAY_ALL_ARTICLES[self.variant]]

    def meld_rows(self):
        rows = range(MELD_ROWS if self.variant == "conventional" else 1)
        return [(self[f"meld_kind_{row}"], self[f"meld_tiles_{row}"]) for row in rows]

    def mark_invalid(self) -> None:
        """Mark every field with an error for assistive technology (aria-invalid, the message as
        its description) and put the focus on the first one, also without the screen's script."""
        first = True
        for name in self.fields:
            if not self.has_error(name):
                continue
            attrs = self.fields[name].widget.attrs
            attrs["aria-invalid"] = "true"
            described = attrs.get("aria-describedby", "")
            attrs["aria-describedby"] = f"{self[name].auto_id}_error {described}".strip()
            if first:
                attrs["autofocus"] = True
                first = False

    def record(self, header: dict) -> dict:
        """The portable record of what was entered, on the ledger's `header` (docs/record-format.md)."""
        data = self.cleaned_data
        result = data["result"]
        record = {**header, "result": result, "winner": None, "discarder": None, "hand": None,
                  "conditions": [], "declared_fan": data.get("declared_fan"), "conduct": [], "claimants": [],
                  "pay_all": None, "false_win": None}
        if result == "win":
            melds = []
            for row in range(MELD_ROWS if self.variant == "conventional" else 1):
                kind, tiles = data.get(f"meld_kind_{row}"), data.get(f"meld_tiles_{row}", "").strip()
                if kind or tiles:
                    melds.append({"kind": "kong" if kind == "concealed_kong" else kind, "tiles": tiles,
                                  "exposed": kind != "concealed_kong"})
            record.update(
                winner=data.get("winner") or None, discarder=data.get("discarder") or None,
                hand={"concealed": data.get("concealed", "").strip(), "melds": melds,
                      "winning_tile": data.get("winning_tile", "").strip()},
                conditions=list(data.get("conditions") or []), claimants=list(data.get("claimants") or []),
                conduct=[{"seat": seat, "kind": "declined_pong"} for seat in data.get("declined_pong") or []]
                + [{"seat": seat, "kind": "saw_tiles"} for seat in data.get("saw_tiles") or []],
            )
            if data.get("pay_all_seat") or data.get("pay_all_article"):
                record["pay_all"] = {"seat": data.get("pay_all_seat") or None,
                                     "article": data.get("pay_all_article") or None,
                                     "live_tile": bool(data.get("pay_all_live_tile"))}
                # I-12: the broken set belongs to 10(a)(5); a chow chosen under another article is
                # sent too, so that the engine says it does not apply rather than the screen dropping it.
                broken_set = data.get("pay_all_broken_set")
                if broken_set and (data.get("pay_all_article") == "10(a)(5)" or broken_set != "pong"):
                    record["pay_all"]["broken_set"] = broken_set
        elif result == "false_win":
            record["false_win"] = {"seat": data.get("false_win_seat") or None}
        return record


def initial_from_record(record: dict) -> dict:
    """The `JogoForm` initial data that gives back `record` (the inverse of `JogoForm.record`,
    which takes the stored record itself as the header): the dealer's form filled with a
    recorded jogo, to correct it."""
    hand = record.get("hand") or {}
    conduct = record.get("conduct") or []
    pay_all = record.get("pay_all") or {}
    initial = {
        "result": record.get("result"), "winner": record.get("winner") or "",
        "discarder": record.get("discarder") or "", "concealed": hand.get("concealed", ""),
        "winning_tile": hand.get("winning_tile", ""), "conditions": list(record.get("conditions") or []),
        "declared_fan": record.get("declared_fan"), "claimants": list(record.get("claimants") or []),
        "declined_pong": [c["seat"] for c in conduct if c["kind"] == "declined_pong"],
        "saw_tiles": [c["seat"] for c in conduct if c["kind"] == "saw_tiles"],
        "pay_all_seat": pay_all.get("seat") or "", "pay_all_article": pay_all.get("article") or "",
        "pay_all_live_tile": bool(pay_all.get("live_tile")),
        "false_win_seat": (record.get("false_win") or {}).get("seat") or "",
    }
    for row, meld in enumerate(hand.get("melds") or []):
        concealed_kong = meld["kind"] == "kong" and not meld.get("exposed", True)
        initial[f"meld_kind_{row}"] = "concealed_kong" if concealed_kong else meld["kind"]
        initial[f"meld_tiles_{row}"] = meld["tiles"]
    return initial


def form_field(record_field: str | None) -> str | None:
    """The form field a record field's error belongs to ("hand.melds[1].tiles" → "meld_tiles_1")."""
    if not record_field:
        return None
    meld = MELD_FIELD.match(record_field)
    if meld:
        return f"meld_{'kind' if record_field.endswith('.kind') else 'tiles'}_{meld.group(1)}"
    return FORM_FIELD.get(record_field)


def problem_field(problem) -> str | None:
    """The form field a refused save's problem is about: the record field it names, else the
    field its breach is about (a meld's problem by the meld's row)."""
    name = form_field(getattr(problem, "field", None))
    if name:
        return name
    params = getattr(problem, "params", None) or {}
    if getattr(problem, "code", None) == "seat_not_seated":
        return form_field(str(params.get("field", "")).split("[")[0])
    name = BREACH_FIELD.get(getattr(problem, "code", None))
    if name and "{index}" in name:
        return name.format(index=params["index"]) if isinstance(params.get("index"), int) else None
    return name
