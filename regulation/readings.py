"""The register of readings: every point where Portaria 135/91/M leaves a question open (I-n), or
where its Portuguese and Chinese texts differ (§8.n), with the alternatives a rule set chooses
among (`RuleSet.readings`). Data only: it imports nothing that scores, so that `rules.py` can
check a rule set's choices against it; `decisions.py` says which readings decided one jogo.

An alternative marked `implemented=False` is described for the inspector but the engine cannot
score by it, because the record does not say what it turns on (which draw the winner won on, how
the robbed kong was made, whether a player was ready), or because it leaves a winning hand with
no outcome at all. A rule set may only adopt an implemented alternative.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .errors import gettext_noop


@dataclass(frozen=True)
class Alternative:
    name: str
    description: str  # English, for an inspector
    implemented: bool = True


@dataclass(frozen=True)
class Reading:
    code: str  # "I-4", or "§8.n" for a difference between the two texts alone
    article: str  # "6(a)(3)"
    question: str  # English, short
    pt: str  # the Portuguese words of the regulation
    zh: str  # the Chinese words
    alternatives: tuple[Alternative, ...]
    differences: tuple[str, ...] = ()  # the points of docs/rules.md §8 this reading also settles
    changes_outcome: bool = True  # False: the two texts differ in words, never in an outcome

    def alternative(self, name: str) -> Alternative:
        for alternative in self.alternatives:
            if alternative.name == name:
                return alternative
        names = ", ".join(a.name for a in self.alternatives)
        raise ValueError(f"reading {self.code} has no alternative {name!r}; its alternatives are {names}")


def _alt(name: str, description: str, implemented: bool = True) -> Alternative:
    return Alternative(name, description, implemented)


READINGS: tuple[Reading, ...] = (
    Reading(
        "I-1", "3",
        gettext_noop("Does a drawn or void jogo move the bank?"),
        "quando o jogo é ganho pelo banqueiro, este retém a banca («chông») até o jogo ser ganho por outro "
        "parceiro, altura em que a banca é passada para o parceiro da direita",
        "庄家如糊出該局，則可於下一局牌保留其庄家之權利直至由另一家糊出為止",
        (
            _alt("bank_stays", gettext_noop("The bank passes only when another player wins; after a draw or a "
                                            "false win the banker keeps it.")),
            _alt("bank_passes", gettext_noop("The bank passes to the player on the banker's right whenever the "
                                             "banker does not win, a drawn or void jogo included.")),
        ),
    ),
    Reading(
        "I-2", "3",
        gettext_noop("When does the round wind advance?"),
        "Cada roda de quatro jogos leva o nome de um dos «ventos»",
        "每圈各以門風命名，即依次為東、南、西、北風圈",
        (
            _alt("back_to_first_chair", gettext_noop("The round ends when the bank has gone round every chair "
                                                     "and comes back to the chair that held it when the round "
                                                     "began.")),
            _alt("every_four_jogos", gettext_noop("Every four jogos make a round, retentions "
                                                  "of the bank included."), implemented=False),
        ),
    ),
    Reading(
        "I-3", "6(a)(1)",
        gettext_noop("What grade has an all-chow hand whose pair is a dragon or a valued wind?"),
        "Jogo mínimo («Kai vu») — É o jogo de graduação mais baixa no Mah-Jong. Inclui um a três conjuntos de 3 "
        "pedras iguais sem valerem como «fán» nem como «fán» dobrado.",
        "雞糊 - 此項博彩之最低者，其包括一至三擱無下列所述“一番”或“兩番”成份在內之碰牌。",
        (
            _alt("chicken", gettext_noop("It is a chicken hand, grade 0: a winning hand with no item.")),
            _alt("ungraded", gettext_noop("Read literally, a chicken hand holds one to three "
                                          "pongs, so four chows and a valued pair have no "
                                          "grade at all; a winning hand with no outcome is "
                                          "not one the engine can settle."), implemented=False),
        ),
    ),
    Reading(
        "I-4", "6(a)(3)",
        gettext_noop("What makes kan-kan vu (concealed pongs)?"),
        "Ao jogo ganho formado apenas por trios fechados e um par, sem ter aproveitado pedra descartada por "
        "qualquer dos parceiros e sem ter feito qualquer «kóng».",
        "擱擱糊，即對對糊不碰牌落地；",
        (
            _alt("portuguese", gettext_noop("Four concealed pongs and a pair, self-drawn, with no kong at all.")),
            _alt("chinese", gettext_noop("All pongs with none exposed: a concealed kong counts, and the winning "
                                         "tile may be a discard.")),
        ),
        differences=("§8.1",),
    ),
    Reading(
        "I-5", "6(a)(2)–(3)",
        gettext_noop("How do the items of one hand combine into its grade?"),
        "É atribuído 1 «fán» … (3) «Fán» dobrado («Leong fán») (Graduação máxima)",
        "搶別家明槓（先碰出，再開槓）糊出，多算一番 … (3)兩番 - （糊出之最高番數）",
        (
            _alt("additive", gettext_noop("The fán of every item add up, and the sum is capped at the variant's "
                                          "highest grade.")),
            _alt("highest_plus_bonus", gettext_noop("The highest single item that is not a bonus, plus one fán "
                                                    "for each item the Chinese text calls 多算一番 («one more "
                                                    "fán»): robbing a kong, the kong replacement, the last tile "
                                                    "and terminals and honours; capped the same way.")),
        ),
        differences=("§8.5",),
    ),
    Reading(
        "I-6", "7, 8",
        gettext_noop("What is the share a loser pays at the tier X/2X?"),
        "Modalidade de aposta … O banqueiro paga sempre a dobrar",
        "限紅 … 庄家則付雙份",
        (
            _alt("doubling", gettext_noop("X is the share of a chicken hand and every fán doubles it: X × "
                                          "2^grade.")),
            _alt("tier_bounds", gettext_noop("The tier X/2X bounds the share: X for a chicken hand, 2X for any "
                                             "higher grade.")),
        ),
    ),
    Reading(
        "I-7", "9(a)(4), 9(b)(3)",
        gettext_noop("How are the losers' dues reduced when the winner's capital caps them?"),
        "O parceiro que ganhe um jogo não pode receber montante superior ao do seu capital em jogo.",
        "如某家贏取該局，其只可贏得相等於手上本錢之數目。",
        (
            _alt("pro_rata", gettext_noop("Each due is reduced in proportion, in whole units by largest "
                                          "remainder, ties to the earlier seat after the winner.")),
            _alt("turn_order", gettext_noop("The losers pay in full in turn order after the winner until the "
                                            "winner's capital is reached; the later ones pay the rest or "
                                            "nothing.")),
        ),
    ),
    Reading(
        "I-8", "8, 9(a)(4)",
        gettext_noop("How is the commission taken when the cap binds?"),
        "Comissão da Casa … O parceiro que ganhe um jogo não pode receber montante superior ao do seu capital em "
        "jogo.",
        "公司每局向贏家抽水 … 其只可贏得相等於手上本錢之數目",
        (
            _alt("from_what_is_received", gettext_noop("After the cap, out of what the winner receives: it "
                                                       "never exceeds that amount, so the winner nets 0 at "
                                                       "worst.")),
            _alt("whole_commission", gettext_noop("The tier's whole commission, even when it exceeds what the "
                                                  "winner receives (he may net less than nothing).")),
        ),
        differences=("§8.9",),
    ),
    Reading(
        "I-9", "10(a), 10(b)",
        gettext_noop("What does the player liable for a pay-all pay?"),
        "o jogador é obrigado a suportar a perda dos outros dois parceiros",
        "出冲者須包輸",
        (
            _alt("every_due", gettext_noop("Every share the losers owe, the banker's double included; the "
                                           "others pay nothing; the winner's cap still applies.")),
            _alt("plain_shares", gettext_noop("The others' shares without the banker's "
                                              "double."), implemented=False),
        ),
    ),
    Reading(
        "I-10", "10(a)(8), 10(b)(3)",
        gettext_noop("How much is the false-win compensation?"),
        "pagando-lhes importância equivalente a «fán» dobrado … equivalente a um «fán»",
        "庄家食詐糊，作兩番賠出。閒家食詐糊須作兩番賠給庄家，其餘兩家只以一番賠給",
        (
            _alt("single_share", gettext_noop("The single share of the named grade, with no further doubling "
                                              "for the banker.")),
            _alt("as_a_win", gettext_noop("The named grade's share, doubled again between "
                                          "the offender and the banker as a win's would be."), implemented=False),
        ),
    ),
    Reading(
        "I-11", "6(a)(2)",
        gettext_noop("May wân iat sêk (mixed one suit) hold honours that are worth fán?"),
        "pedras dum mesmo grupo … e pedras trunfos ou pedras ventos sem valerem «fán» ou «fán» dobrado",
        "混一色，即由一某一色牌（索子、萬子或筒子牌）及無番之門風牌或中發白所組成",
        (
            _alt("honours_worth_no_fan", gettext_noop("No: with a dragon set or a seat- or round-wind set the "
                                                      "hand scores that item only; an honour pair is fine.")),
            _alt("any_honours", gettext_noop("Yes: one suit plus any honours is mixed one suit, on top of the "
                                             "honours' items.")),
        ),
        differences=("§8.7",),
    ),
    Reading(
        "I-12", "10(a)(5)",
        gettext_noop("Which broken set makes the discarder liable under 10(a)(5)?"),
        "descartar uma pedra dum conjunto de 3 que tenha na mão",
        "未叫糊亦不可拆一擱碰牌",
        (
            _alt("any_set_of_three", gettext_noop("A pong or a chow (the Portuguese «conjunto de 3»).")),
            _alt("pong_only", gettext_noop("A pong only (the Chinese 碰牌); a pay-all for a broken chow is "
                                           "refused.")),
        ),
        differences=("§8.16",),
    ),
    Reading(
        "I-13", "5(b)(1), 6(b)(2)",
        gettext_noop("Does a heavenly win score the items of its winning tile?"),
        "as pedras tiradas pelo banqueiro formarem um conjunto de três e um par … ganha com a pedra trunfo «fát "
        "chói»",
        "庄家於開局時所取得之牌爲一擱牌及一對 … 如食糊牌為番子（發財）多算一番",
        (
            _alt("no_winning_tile", gettext_noop("No: the banker's dealt tiles already win, so there is no "
                                                 "winning tile.")),
            _alt("named_tile", gettext_noop("Yes: the tile the record names as the winning tile counts (the "
                                            "same hand then grades 1 or 0 by the tile named).")),
        ),
    ),
    Reading(
        "I-14", "10(b)(1)",
        gettext_noop("May the winner of a 10(b)(1) pay-all hold the green dragon?"),
        "tendo na mão a 4.ª pedra trunfo («fát chói»), não a descartar",
        "如某家扣起絕張番子（發財）",
        (
            _alt("winner_holds_none", gettext_noop("No: «the 4th» means the other three are on view, so the "
                                                   "winner holds none; such a record is refused.")),
            _alt("not_checked", gettext_noop("The winner's green dragons are not checked.")),
        ),
    ),
    Reading(
        "I-15", "5(a)(3), 5(a)(6)",
        gettext_noop("May a win complete a sequence on the discard of a player other than the one on the "
                     "winner's left?"),
        "só o que está à sua direita a pode aproveitar para fazer uma sequência",
        "只有“下家”（坐於右下首者）得上牌權利",
        (
            _alt("any_discard", gettext_noop("Yes: 5(a)(3) governs claims made to meld; a win is claimed under "
                                             "5(a)(6).")),
            _alt("left_only", gettext_noop("No: a winning tile that completes a sequence may "
                                           "only come from the player on the winner's left; "
                                           "which set the tile completed is not in the "
                                           "record."), implemented=False),
        ),
    ),
    Reading(
        "I-16", "10(a)(1)",
        gettext_noop("Does a concealed kong count among the sets on view for 10(a)(1)?"),
        "que tenha à vista sobre a mesa 3 ou 4 conjuntos de pedras do mesmo grupo",
        "清一色九章落地",
        (
            _alt("on_view", gettext_noop("No: only exposed sets are on view.")),
            _alt("any_declared", gettext_noop("Yes: every declared meld counts, the concealed kong included.")),
        ),
    ),
    Reading(
        "I-17", "3(b)",
        gettext_noop("How long is a complete game with fewer than four players?"),
        "São jogados, em princípio, 16 jogos.",
        "原則上，每圈有四局牌，即一循環爲十六局牌",
        (
            _alt("seated_players", gettext_noop("4 × the number of players, without retentions: the bank goes "
                                                "round the seated players only.")),
            _alt("sixteen", gettext_noop("16 jogos whatever the number of players."), implemented=False),
        ),
    ),
    Reading(
        "I-18", "6(a)(2)",
        gettext_noop("Are honours that score only together, as small four winds, worth fán for wân iat sêk "
                     "(mixed one suit)?"),
        "pedras trunfos ou pedras ventos sem valerem «fán» ou «fán» dobrado … Pedras ventos («Siu sei hei») — "
        "É atribuído 1 «fán» ao jogo ganho com três conjuntos e um par de pedras, todos do grupo de ventos.",
        "混一色，即由一某一色牌（索子、萬子或筒子牌）及無番之門風牌或中發白所組成 … 小四喜，三擱及一對門風牌",
        (
            _alt("honours_together", gettext_noop("Yes: honours that together make small four winds or small "
                                                  "three dragons are worth fán, so the hand scores that item "
                                                  "and not mixed one suit.")),
            _alt("each_set", gettext_noop("No: each honour set is judged alone; with no dragon set and no seat- "
                                          "or round-wind set, mixed one suit scores beside small four winds.")),
        ),
    ),
    Reading(
        "§8.2", "6(a)(2), 6(b)(2)",
        gettext_noop("Does a win on the last discard score the last tile?"),
        "ao jogo ganho com a última pedra da jogada",
        "海底撈月，即某家摸全局最後一隻牌糊出",
        (
            _alt("portuguese", gettext_noop("Yes: the last tile of the jogo, drawn or discarded.")),
            _alt("chinese", gettext_noop("No: only the last tile drawn (摸) by the winner himself.")),
        ),
    ),
    Reading(
        "§8.3", "6(a)(2)",
        gettext_noop("Which kong may be robbed?"),
        "pedra adquirida por outro parceiro, que com a mesma pedra, iria fazer um «kóng» aberto",
        "搶別家明槓（先碰出，再開槓）糊出",
        (
            _alt("portuguese", gettext_noop("Any open kong being made.")),
            _alt("chinese", gettext_noop("Only a kong made by adding the fourth tile to an "
                                         "exposed pong; the record does not say how the "
                                         "robbed kong was being made."), implemented=False),
        ),
    ),
    Reading(
        "§8.4", "6(a)(2)–(3)",
        gettext_noop("Must dragon and wind sets be exposed to score?"),
        "A qualquer conjunto de 3 pedras iguais do grupo de trunfos … Ao jogo que inclua 3 conjuntos de pedras "
        "trunfos",
        "碰出或槓中、發、白任何一種 … 大三元，即碰出全部中、發、白",
        (
            _alt("portuguese", gettext_noop("No: any set counts, concealed in the hand or declared.")),
            _alt("chinese", gettext_noop("Yes: only sets ponged out or konged (碰出或槓) count, for the dragon and "
                                         "wind sets, big three dragons and big four winds.")),
        ),
    ),
    Reading(
        "§8.6", "6(a)(2)",
        gettext_noop("What makes fá iu-kau (terminals and honours)?"),
        "formado por conjuntos de pedras com marcação numérica 1 ou 9 e outras pedras dos grupos trunfos ou ventos",
        "混么，糊出之四擱一對牌，由門風牌，番子（中發白），一及九有關連之牌所組成者",
        (
            _alt("portuguese", gettext_noop("Every set and the pair made of 1s, 9s and honours.")),
            _alt("chinese", gettext_noop("Every set and the pair related to (有關連) a 1, a 9 or an honour: a chow "
                                         "1-2-3 or 7-8-9 counts.")),
        ),
    ),
    Reading(
        "§8.8", "6(b)(1)",
        gettext_noop("Is the simplified chicken hand worth one fán?"),
        "Inclui qualquer combinação diferente das especificadas no parágrafo seguinte — um «fán».",
        "雞糊 - 此項博彩之最低者，而其組合不包括下述“一番”所列者。",
        (
            _alt("chicken", gettext_noop("No: the stray «um fán» names the next paragraph; the Chinese confirms "
                                         "the chicken hand is below one fán.")),
        ),
        changes_outcome=False,
    ),
    Reading(
        "§8.10", "10(a)(1)",
        gettext_noop("How many exposed sets make a 10(a)(1) pay-all?"),
        "que tenha à vista sobre a mesa 3 ou 4 conjuntos de pedras do mesmo grupo",
        "清一色九章落地，出冲者須包輸",
        (
            _alt("portuguese", gettext_noop("3 or 4 exposed sets.")),
            _alt("chinese", gettext_noop("Nine tiles (九章): exactly 3 exposed sets; four are the case of "
                                         "10(a)(2).")),
        ),
    ),
    Reading(
        "§8.11", "10(a)(2)",
        gettext_noop("How long is the discarder liable after the fourth exposed set?"),
        "se esse quarto parceiro, na jogada a seguir, adquirir pedra para ganhar",
        "供清一色十二章者，包摸一輪",
        (
            _alt("portuguese", gettext_noop("The winner's next draw only.")),
            _alt("chinese", gettext_noop("A whole go-round of self-draws (包摸一輪); the record "
                                         "does not say which draw won."), implemented=False),
        ),
    ),
    Reading(
        "§8.12", "10(a)(3)",
        gettext_noop("When is the discarder of the last dragon or wind liable?"),
        "se a pedra trunfo ou pedra vento por ele descartada servir para completar o jogo do quarto parceiro",
        "如已經碰出中、發、白任何兩擱，出冲而讓其糊出大三元者，須包輸",
        (
            _alt("portuguese", gettext_noop("Whenever his dragon or wind completes big three dragons or big "
                                            "four winds.")),
            _alt("chinese", gettext_noop("Only when two dragon sets (or three wind sets) were already exposed.")),
        ),
    ),
    Reading(
        "§8.13", "10(a)(6), 10(b)(2)",
        gettext_noop("What does «ready, broke his hand» mean?"),
        "estando à espera de pedra para ganhar, desfizer o seu jogo",
        "有糊不叫，並打出讓別家食糊者須包輸",
        (
            _alt("portuguese", gettext_noop("A ready player broke his hand with the discard.")),
            _alt("chinese", gettext_noop("A player who could have won and did not declare "
                                         "(有糊不叫); the record does not say whether he could "
                                         "have won."), implemented=False),
        ),
    ),
    Reading(
        "§8.14", "5(a)(5)",
        gettext_noop("Is a fourth tile added to an exposed pong an open kong?"),
        "O jogador que tenha já um «p'ông» feito na mesa e compre a quarta pedra igual, faz um «k'ông»",
        "一擱已碰出落地之牌，若再摸該第四隻牌，可開槓，亦爲“明槓”",
        (
            _alt("open_kong", gettext_noop("Yes; the Chinese says it plainly.")),
        ),
        changes_outcome=False,
    ),
    Reading(
        "§8.15", "10(b)(3)",
        gettext_noop("Whom does a simplified false win compensate when fewer than four play?"),
        "é obrigado a indemnizar os restantes três parceiros",
        "亦以一番賠給庄家及閒家",
        (
            _alt("every_other_player", gettext_noop("Every other player seated; the simplified game has 2 to 4 "
                                                    "players.")),
        ),
        changes_outcome=False,
    ),
)


_BY_CODE = {r.code: r for r in READINGS}


def reading(code: str) -> Reading:
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(f"no reading {code!r}; the readings are {', '.join(_BY_CODE)}") from None


def check_choices(choices: Mapping[str, str], complete: bool = False) -> None:
    """ValueError unless every choice names a reading and one of its implemented alternatives
    (and, when `complete`, every reading is chosen)."""
    for code, name in choices.items():
        if not reading(code).alternative(name).implemented:
            raise ValueError(f"reading {code}: the alternative {name!r} is described, not implemented")
    missing = [code for code in _BY_CODE if code not in choices] if complete else []
    if missing:
        raise ValueError(f"a rule set chooses every reading; missing {', '.join(missing)}")


# I-11: the items of honour sets that score; I-18: the items of honours that score only together.
HONOUR_SET_ITEMS = frozenset({"dragon_set", "round_wind_set", "seat_wind_set", "double_wind_set",
                              "big_three_dragons", "big_four_winds"})
HONOUR_COMBINATIONS = frozenset({"small_four_winds", "small_three_dragons"})
