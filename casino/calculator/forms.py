"""The hand as a person enters it on the calculator: every seat's tiles, melds, flowers and
seasons, and how the winning tile came.

`HandForm.hand()` gives the hand as the classical books' record has it (the winner's concealed
tiles without the winning tile, as in the portable jogo record); `casino.calculator.scoring`
makes every rule set's record from it. The form checks what a person can get wrong while
typing (the tile notation, a missing winning tile or discarder, a flower given to two seats);
whether the tiles make a winning hand is each rule set's own verdict, shown beside its score.
"""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.pit.forms import tiles_input
from casino.terms.vocabulary import notation_mistake, round_name, seat_name
from regulation.tiles import TileNotationError, read_tiles

from .scoring import bonus_name, seat_label

SEATS = ("E", "S", "W", "N")
MELD_ROWS = 4  # four sets at most besides the pair
MELD_KINDS = [("", _("—")), ("chow", _("Chow")), ("pong", _("Pong")), ("kong", _("Open kong")),
              ("concealed_kong", _("Concealed kong"))]
MELD_SIZE = {"chow": 3, "pong": 3, "kong": 4, "concealed_kong": 4}
# How the winning tile came (the books' record, `winning_from`).
WINNING_FROM = [("discard", _("On a discard")), ("self_drawn", _("Self-drawn")),
                ("kong_replacement", _("On the loose tile after a kong")),
                ("last_tile", _("On the last tile of the wall")), ("robbing_kong", _("Robbing a kong"))]
WITH_DISCARDER = ("discard", "robbing_kong")
# Flowers f1–f4 and seasons g1–g4: number n belongs to seat n (1 East, 2 South, 3 West, 4 North).
BONUS_TILES = tuple(f"f{n}" for n in range(1, 5)) + tuple(f"g{n}" for n in range(1, 5))


def _seat_choices():
    return [(seat, seat_name(seat)) for seat in SEATS]


class HandForm(forms.Form):
    round_wind = forms.ChoiceField(label=_("Round wind"), initial="E")
    winner = forms.ChoiceField(label=_("Winner"), initial="E")
    opener = forms.ChoiceField(label=_("Opener («abridor», Serralheiro)"), initial="E",
                               help_text=_("The player who opened the wall; only Serralheiro's book scores by him"))
    winning_from = forms.ChoiceField(label=_("How the winning tile came"), choices=WINNING_FROM, initial="discard")
    discarder = forms.ChoiceField(label=_("Discarder"), required=False,
                                  help_text=_("Who discarded the winning tile, or whose kong was robbed"))
    winning_tile = forms.CharField(label=_("Winning tile"), max_length=8,
                                   widget=tiles_input("one", **{"class": "short"}),
                                   error_messages={"required": _("Enter the winning tile, e.g. 5p.")})
    only_possible_tile = forms.BooleanField(label=_("It was the only tile that could complete the hand"),
                                            required=False)
    first_turn = forms.BooleanField(label=_("Went out on his first turn (self-drawn)"), required=False,
                                    help_text=_("Only the Brazilian rules score it: Mão Celeste"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round_wind"].choices = [(seat, round_name(seat)) for seat in SEATS]
        self.fields["winner"].choices = _seat_choices()
        self.fields["opener"].choices = _seat_choices()
        self.fields["discarder"].choices = [("", _("—"))] + _seat_choices()
        for seat in SEATS:
            name = seat_name(seat)
            self.fields[f"{seat}_concealed"] = forms.CharField(
                label=_("Concealed tiles"), required=False, max_length=80,
                widget=tiles_input("many", **{"aria-label": _("Concealed tiles of %(seat)s") % {"seat": name}}))
            for row in range(MELD_ROWS):
                self.fields[f"{seat}_meld_kind_{row}"] = forms.ChoiceField(
                    label=_("Meld"), choices=MELD_KINDS, required=False)
                self.fields[f"{seat}_meld_tiles_{row}"] = forms.CharField(
                    label=_("Meld tiles"), required=False, max_length=16,
                    widget=tiles_input("many", **{"aria-label": _("Tiles of meld %(n)s of %(seat)s")
                                                  % {"n": row + 1, "seat": name}}))
            self.fields[f"{seat}_flowers"] = forms.MultipleChoiceField(
                label=_("Flowers and seasons"), choices=[(code, bonus_name(code)) for code in BONUS_TILES],
                required=False, widget=forms.CheckboxSelectMultiple)

    # --- what the template lays out ---------------------------------------------------------

    def seats(self) -> list[dict]:
        """Each seat's fields, in turn order E, S, W, N."""
        return [{"seat": seat, "label": seat_label(seat), "concealed": self[f"{seat}_concealed"],
                 "melds": [(self[f"{seat}_meld_kind_{row}"], self[f"{seat}_meld_tiles_{row}"])
                           for row in range(MELD_ROWS)],
                 "flowers": self[f"{seat}_flowers"]} for seat in SEATS]

    # --- checks -----------------------------------------------------------------------------

    def _tiles(self, name: str, tiles: str) -> tuple[int, ...] | None:
        """The tiles of a field in the notation, or None with the mistake put beside the field."""
        try:
            return read_tiles(tiles)[0]
        except TileNotationError as mistake:
            self.add_error(name, _("%(mistake)s. Tiles are written as numbers then the suit, e.g. 123m 456p "
                                   "789s 11z.") % {"mistake": notation_mistake(str(mistake))})
            return None

    def clean(self):
        data = super().clean()
        winner, how, discarder = data.get("winner"), data.get("winning_from"), data.get("discarder")
        winning = data.get("winning_tile", "").strip()
        if winning:
            tiles = self._tiles("winning_tile", winning)
            if tiles is not None and len(tiles) != 1:
                self.add_error("winning_tile", _("The winning tile is one tile, e.g. 5p."))
        if how in WITH_DISCARDER and not discarder:
            self.add_error("discarder", _("Choose who discarded the winning tile.") if how == "discard"
                           else _("Choose the player whose kong was robbed."))
        elif how in WITH_DISCARDER and discarder == winner:
            self.add_error("discarder", _("The winner cannot win on his own discard or rob his own kong."))
        if data.get("first_turn") and how != "self_drawn":
            self.add_error("first_turn", _("Going out on one's first turn is self-drawn: choose “Self-drawn” "
                                           "or untick this box."))
        owner: dict[str, str] = {}
        for seat in SEATS:
            concealed = data.get(f"{seat}_concealed", "").strip()
            if concealed:
                self._tiles(f"{seat}_concealed", concealed)
            for row in range(MELD_ROWS):
                kind_field, tiles_field = f"{seat}_meld_kind_{row}", f"{seat}_meld_tiles_{row}"
                kind, tiles = data.get(kind_field), data.get(tiles_field, "").strip()
                if kind and not tiles:
                    self.add_error(tiles_field, _("Enter the tiles of this meld."))
                elif tiles and not kind:
                    self.add_error(kind_field, _("Choose what this meld is: chow, pong or kong."))
                elif tiles:
                    read = self._tiles(tiles_field, tiles)
                    if read is not None and len(read) != MELD_SIZE[kind]:
                        self.add_error(tiles_field, _("A chow or a pong has 3 tiles, a kong 4; this meld has "
                                                      "%(count)s.") % {"count": len(read)})
            for bonus in data.get(f"{seat}_flowers") or ():
                if bonus in owner:
                    self.add_error(f"{seat}_flowers", _("%(tile)s is already with %(seat)s: there is one of each "
                                                        "flower and season.")
                                   % {"tile": bonus_name(bonus), "seat": seat_name(owner[bonus])})
                owner[bonus] = seat
        if winner and not (data.get(f"{winner}_concealed", "").strip()
                           or any(data.get(f"{winner}_meld_tiles_{row}") for row in range(MELD_ROWS))):
            self.add_error(f"{winner}_concealed", _("Enter the winner's tiles."))
        return data

    def hand(self) -> dict:
        """The hand in the classical books' record (every seat's tiles, melds, flowers and
        seasons, the banker East); the winner's concealed tiles leave out the winning tile."""
        data = self.cleaned_data
        players = {}
        for seat in SEATS:
            melds = []
            for row in range(MELD_ROWS):
                kind, tiles = data.get(f"{seat}_meld_kind_{row}"), data.get(f"{seat}_meld_tiles_{row}", "").strip()
                if kind and tiles:
                    melds.append({"kind": "kong" if kind == "concealed_kong" else kind, "tiles": tiles,
                                  "exposed": kind != "concealed_kong"})
            concealed = data.get(f"{seat}_concealed", "").strip()
            flowers = " ".join(data.get(f"{seat}_flowers") or ())
            if concealed or melds or flowers or seat == data["winner"]:
                players[seat] = {"concealed": concealed, "melds": melds, "flowers": flowers}
        how = data["winning_from"]
        return {
            "round_wind": data["round_wind"], "banker": "E", "opener": data["opener"], "winner": data["winner"],
            "winning_from": how,
            "discarder": data.get("discarder") if how in WITH_DISCARDER else None,
            "winning_tile": data["winning_tile"].strip(), "only_possible_tile": bool(data.get("only_possible_tile")),
            "first_turn": bool(data.get("first_turn")), "players": players,
        }


def form_data(hand: dict) -> dict:
    """The calculator's query for `hand` (the inverse of `HandForm.hand`): a link that opens the
    calculator with a hand entered, as the examples on the page do."""
    data = {"round_wind": hand["round_wind"], "opener": hand.get("opener") or hand.get("banker") or "E",
            "winner": hand["winner"], "winning_from": hand["winning_from"],
            "discarder": hand.get("discarder") or "", "winning_tile": hand["winning_tile"]}
    if hand.get("only_possible_tile"):
        data["only_possible_tile"] = "on"
    if hand.get("first_turn"):
        data["first_turn"] = "on"
    for seat, player in hand["players"].items():
        data[f"{seat}_concealed"] = player.get("concealed", "")
        for row, meld in enumerate(player.get("melds") or ()):
            concealed_kong = meld["kind"] == "kong" and not meld.get("exposed", True)
            data[f"{seat}_meld_kind_{row}"] = "concealed_kong" if concealed_kong else meld["kind"]
            data[f"{seat}_meld_tiles_{row}"] = meld["tiles"]
        if player.get("flowers"):
            data[f"{seat}_flowers"] = player["flowers"].split()
    return data
