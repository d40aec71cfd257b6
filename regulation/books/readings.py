"""The register of readings of the three rule books: where a book is silent, ambiguous, garbled
or contradicts itself, the alternatives, the book's own words (verbatim, in its language), and
the alternative each book's rule set adopts by default.

An alternative marked `implemented=False` is described for the reader but cannot be scored,
because the record does not say what it turns on (as in regulation/readings.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import gettext_noop
from ..readings import Alternative

SERRALHEIRO = "serralheiro-2003"
ENGLISH = "english-booklet"
CARTAS = "cartas-pt-br"


@dataclass(frozen=True)
class BookReading:
    code: str  # "S-A1"
    book: str  # the rule set's code
    section: str  # the book's own section
    question: str  # English
    words: str  # the book's own words, verbatim
    alternatives: tuple[Alternative, ...]
    default: str  # the name of the alternative the book's rule set adopts

    def alternative(self, name: str) -> Alternative:
        return next(a for a in self.alternatives if a.name == name)


def _alt(name: str, description: str, implemented: bool = True) -> Alternative:
    return Alternative(name, description, implemented)


def _reading(code: str, book: str, section: str, question: str, words: str, alternatives: tuple[Alternative, ...],
             default: str | None = None) -> BookReading:
    return BookReading(code, book, section, question, words, alternatives, default or alternatives[0].name)


BOOK_READINGS: tuple[BookReading, ...] = (
    # --- Serralheiro 2003 --------------------------------------------------------------------
    _reading("S-A1", SERRALHEIRO, "§10, tabela dos dobres; §10(c)(ii)",
             gettext_noop("Does a pong of a wind that is nobody's privilege earn a double?"),
             "1 pongue ou congue de Ventos (próprio, abridor, banqueiro) | 1, 2 ou 3 … 1 dobre pelo facto de "
             "ser um vento + 1 dobre por ser do banqueiro",
             (_alt("one_double", gettext_noop("Every wind pong or kong earns one double for being a wind, and one "
                                              "more for each privilege.")),
              _alt("no_double", gettext_noop("A wind pong or kong earns doubles only for its privileges: the "
                                             "holder's own wind, the opener's, the banker's."))),
             ),
    _reading("S-A2", SERRALHEIRO, "§10, tabela dos dobres; nota 9",
             gettext_noop("How many doubles for a wind pong with three privileges (the banker, also the opener, "
                          "holding East)?"),
             "1 pongue ou congue de Ventos (próprio, abridor, banqueiro) | 1, 2 ou 3",
             (_alt("four", gettext_noop("One for the wind and one for each privilege: four.")),
              _alt("at_most_three", gettext_noop("At most three, as the table's \"1, 2 ou 3\" says."))),
             "at_most_three"),
    _reading("S-A3", SERRALHEIRO, "§10(b)",
             gettext_noop("Does every pair of winds score 2 points?"),
             "Ventos (régua) | 2 | 8 | 32",
             (_alt("any_wind", gettext_noop("Any pair of winds scores 2 points.")),
              _alt("privileged_wind", gettext_noop("Only a pair of the holder's own wind, the opener's or the "
                                                   "banker's scores 2 points.")))),
    _reading("S-A4", SERRALHEIRO, "§10, tabela dos dobres",
             gettext_noop("What do the opener's flower and season earn (\"2 ou 4\")?"),
             "Flor ou estação do abridor | 2 ou 4",
             (_alt("two_each", gettext_noop("Two doubles for each of the opener's flower and season: four for "
                                            "both.")),
              _alt("four_for_opener", gettext_noop("Two doubles; four when the opener holds his own.")))),
    _reading("S-A5", SERRALHEIRO, "§10, tabela dos dobres; «Organização de alguns jogos»",
             gettext_noop("Is \"one family\" a suit with honours, and does it add to Pindérico?"),
             "Jogo organizado tendo uma única família | 1 … Pindérico (4 dobres) 4 pongues + 1 par da mesma "
             "família",
             (_alt("suit_with_honours", gettext_noop("One family is one suit with honours (1 double); a pure suit "
                                                     "is Pindérico only.")),
              _alt("stacks_with_pinderico", gettext_noop("Any one-suit hand earns the double, and a pure suit "
                                                         "earns Pindérico as well.")))),
    _reading("S-A6", SERRALHEIRO, "§10, tabela dos dobres",
             gettext_noop("Which honours make an \"esquisito\" hand?"),
             "Jogo organizado com pedras das 3 famílias e com pedras das 2ª e 3ª categorias (esquisito) | 1",
             (_alt("dragons_and_winds", gettext_noop("The three suits with both dragons and winds.")),
              _alt("any_honours", gettext_noop("The three suits with any honours.")))),
    _reading("S-A7", SERRALHEIRO, "§10(b), 2.º (b); notas 9 e 10; §10(c)(vi)",
             gettext_noop("How does the banker pay and receive double?"),
             "Como o banqueiro recebe e paga a dobrar, deve-se-lhe acrescentar sempre mais um dobre",
             (_alt("extra_double_is_receiving", gettext_noop("The banker's extra double is how he receives "
                                                             "double: what is paid to him is paid once; what he "
                                                             "pays is doubled.")),
              _alt("every_payment_doubled", gettext_noop("Besides the extra double, every payment to or from "
                                                         "the banker is doubled.")))),
    _reading("S-A8", SERRALHEIRO, "§10, tabela dos dobres",
             gettext_noop("Do the rows for three pongs and three concealed pongs (and for kongs) add up?"),
             "3 pongues indiferentes | 1 / 3 pongues indiferentes feitos na régua | 2",
             (_alt("highest_row", gettext_noop("Three or more pongs (kongs among them) earn the highest row "
                                               "that applies: 1, or 2 when three are concealed; the same for "
                                               "kongs.")),
              _alt("rows_add", gettext_noop("Every row that applies is added: three concealed pongs earn 1 + 2."))
              )),
    _reading("S-A9", SERRALHEIRO, "§10, tabela dos dobres",
             gettext_noop("Does a hand \"made in the rack\" need a self-drawn win?"),
             "Jogo feito na régua | 2",
             (_alt("any_win", gettext_noop("A winning hand with no set laid down earns 2 doubles however it "
                                           "was won.")),
              _alt("self_drawn_only", gettext_noop("Only when the winning tile was drawn too.")))),
    _reading("S-A10", SERRALHEIRO, "«Organização de alguns jogos»: Fulminante",
             gettext_noop("Which wins are \"Fulminante\" (a limit hand)?"),
             "Jogo com qualquer organização terminado com o descarte do banqueiro ou por este apresentado a "
             "seguir às trocas",
             (_alt("any_banker_discard", gettext_noop("Any win on the banker's discard.")),
              _alt("first_discard_only", gettext_noop("Only a win on the banker's first discard after the "
                                                      "exchanges, or the banker's hand right after them."),
                   implemented=False))),
    _reading("S-A11", SERRALHEIRO, "§10(c)(vi)",
             gettext_noop("Which doubles count for a hand that did not go Mah-Jong?"),
             "Calculados os valores dos restantes jogos, os restantes jogadores pagarão entre si as diferenças "
             "de pontuações",
             (_alt("sets_and_flowers", gettext_noop("The doubles of the sets, flowers and seasons it holds, and "
                                                    "the banker's; not those of a whole hand.")),
              _alt("all_doubles", gettext_noop("Every double its tiles show, whole-hand ones included, but not "
                                               "those of the winning tile.")))),
    _reading("S-A12", SERRALHEIRO, "§10(c)(iv)",
             gettext_noop("What is the limit?"),
             "convém estabelecer um limite antes do início do jogo. Por exemplo, 4.000 pontos pelo valor a "
             "pagar ou a receber pelo banqueiro e 2.000 pontos por cada um dos outros jogadores",
             (_alt("book_example", gettext_noop("The book's example: 4,000 to or from the banker, 2,000 "
                                                "between other players.")),
              _alt("no_limit", gettext_noop("No limit agreed.")))),
    _reading("S-A13", SERRALHEIRO, "§10(c)(v)",
             gettext_noop("Who pays North in the book's example?"),
             "os jogadores Oeste e Norte pagarão cada um 528 pontos ao jogador Norte",
             (_alt("south_and_west", gettext_noop("South and West: North cannot pay himself.")),
              _alt("as_printed", gettext_noop("West and North, as printed."), implemented=False))),
    _reading("S-A14", SERRALHEIRO, "§2, 4ª Categoria, a rosa-dos-ventos",
             gettext_noop("Which seat does each flower and season number belong to?"),
             "(2) / (3) (1) / (4) Os algarismos à direita dos ventos indicam a sua correspondência com as "
             "honras extremas.",
             (_alt("e1_s2_w3_n4", gettext_noop("1 East, 2 South, 3 West, 4 North, as the example needs.")),
              _alt("north_south_swapped", gettext_noop("1 East, 2 North, 3 West, 4 South, the figure read with "
                                                       "North and South swapped.")))),
    _reading("S-A15", SERRALHEIRO, "§10(b)",
             gettext_noop("Is a pong completed by the winning discard concealed or exposed?"),
             "Dragões (régua) | 2 | 8 | 32 / Dragões (expostos) | 2 | 4 | 16",
             (_alt("exposed", gettext_noop("Exposed: its third tile came from the table.")),
              _alt("concealed", gettext_noop("Concealed: it was never laid down before the hand was shown.")))),
    _reading("S-A16", SERRALHEIRO, "§8(d); §10, tabela dos dobres",
             gettext_noop("Does a win on the loose tile drawn for a flower earn the double of the dragon's head?"),
             "Jogo feito com pedra comprada da cabeça do dragão | 1",
             (_alt("kong_replacement_only", gettext_noop("Only a win on the loose tile after a kong.")),
              _alt("flower_replacement_too", gettext_noop("Also a win on the loose tile after a flower."),
                   implemented=False))),
    # --- The English booklet -----------------------------------------------------------------
    _reading("E-A1", ENGLISH, "Section IX",
             gettext_noop("Do the doubles for dragon and own-wind sets and own flowers count for losers too?"),
             "A.- The following are applied to all hands: B.- The Following are applied to winning hands only:",
             (_alt("all_hands", gettext_noop("Yes: dragon sets, own-wind sets and own flowers double every hand; "
                                             "one suit doubles only a winning hand.")),
              _alt("winning_hands_only", gettext_noop("No: every double is for the winner only.")))),
    _reading("E-A2", ENGLISH, "Section VI, 1 and 3",
             gettext_noop("Does the 300 limit cap the hand or each payment?"),
             "the highest score for each hand is limited to 300 points … The Chief (East) always receives or "
             "pays double the amount of the other 3 players",
             (_alt("hand_capped", gettext_noop("The hand is capped at 300; East then pays or receives double, "
                                               "600.")),
              _alt("payment_capped", gettext_noop("No payment exceeds 300, East's included.")))),
    _reading("E-A3", ENGLISH, "Section XI A",
             gettext_noop("Do the extra scores add 10 points or double the score?"),
             "Extra Scores either to add 10 points to the total score after completing hand of any player, or "
             "double the total score as the players like to",
             (_alt("add_ten", gettext_noop("Each adds 10 points, as in the figures.")),
              _alt("double", gettext_noop("Each doubles the score.")))),
    _reading("E-A4", ENGLISH, "Section XI A 3",
             gettext_noop("Do flowers count as points for \"entirely no points\"?"),
             "Entirely no points after completing hand ( Basal points, excluded).",
             (_alt("flowers_are_points", gettext_noop("Yes: a hand with a flower has points.")),
              _alt("flowers_aside", gettext_noop("No: only the sets and pairs are looked at.")))),
    _reading("E-A5", ENGLISH, "Section XI B 2",
             gettext_noop("When does the winning piece \"match the only piece\"?"),
             "Winning piece to match the only piece such as forming a pair, filling in the middle to form a "
             "straight or fitting on only one side to make a straight.",
             (_alt("record_says", gettext_noop("When the record says it was the only possible one.")),
              _alt("single_reading_only", gettext_noop("Only when the hand can be read one way alone."),
                   implemented=False))),
    _reading("E-A6", ENGLISH, "Section VII, Score Tables A and B",
             gettext_noop("Is a pung completed by the winning discard on the table or in hand?"),
             "The following are formed by drawing from wall him self",
             (_alt("on_table", gettext_noop("On the table: its third piece was not drawn from the wall.")),
              _alt("in_hand", gettext_noop("In hand: it was never laid down.")))),
    _reading("E-A7", ENGLISH, "Figs. 16 and 17; Fig. 11",
             gettext_noop("Which figures are misprinted?"),
             "For 4 White Dragons48 … Total16 points26 points … For 4 White Dragons (Kong)632 … 18 is the "
             "smallest possible score",
             (_alt("corrected", gettext_noop("The figures as the rules compute them: Fig. 16's 18, a pung of "
                                             "white dragons, Fig. 17's 16.")),
              _alt("as_printed", gettext_noop("The figures as printed."), implemented=False))),
    _reading("E-A8", ENGLISH, "Section IX; Fig. 17",
             gettext_noop("Does a pung of the round's prevailing wind double?"),
             "If winner is “East Wind” double again",
             (_alt("own_wind_only", gettext_noop("No: only the player's own wind doubles.")),
              _alt("round_wind_doubles", gettext_noop("Yes: a pung of the round wind doubles once as well.")))),
    _reading("E-A9", ENGLISH, "Section VII, Score Table A",
             gettext_noop("Does a loser's pair of dragons or own wind score?"),
             "These are formed by poongs and Kongs, and can apply to all hands",
             (_alt("all_hands", gettext_noop("Yes, 2 points, as the table applies to all hands.")),
              _alt("winner_only", gettext_noop("No: a pair is part of a completed hand only.")))),
    _reading("E-A10", ENGLISH, "Section VI, 3",
             gettext_noop("What are the basal points?"),
             "the winner is entitled to add the Basal points (10 Points) to his total points for combinations "
             "of 3 or 4 of a kind, and a pair",
             (_alt("flat_ten", gettext_noop("A flat 10 for the winner, as the figures confirm.")),
              _alt("per_combination", gettext_noop("10 for each combination."), implemented=False))),
    # --- The Brazilian card edition ------------------------------------------------------------
    _reading("P-A1", CARTAS, "Tabela de contagem de pontos, A 1",
             gettext_noop("Do chows and pairs score points (the row lacks its \"não\")?"),
             "1 - qualquer chow ou par vale pontos",
             (_alt("no_points", gettext_noop("No: chows score nothing and pairs only as table B says.")),
              _alt("as_printed", gettext_noop("As printed: but the row gives no figure."), implemented=False))),
    _reading("P-A2", CARTAS, "Combinações que dão \"dobres\", 2",
             gettext_noop("Which wind pongs earn a double?"),
             "2 — A posse de um pong ou um kong",
             (_alt("own_wind", gettext_noop("The holder's own wind, as the example shows.")),
              _alt("own_and_east", gettext_noop("The own wind, and East (the banker's) for everybody: the banker's "
                                                "own East pong earns 2.")))),
    _reading("P-A3", CARTAS, "Combinações que dão \"dobres\", 3 and 6",
             gettext_noop("How many doubles for one suit with honours, and for a pure suit?"),
             "3 — Mão com apenas um naipe (Bambu, Roda ou China). mais Ventos e/ou Dragões … 6 — Mão com "
             "apenas um naipe, sem Ventos e Dragões",
             (_alt("one_and_three", gettext_noop("1 with honours, 3 pure, as the English booklet's table.")),
              _alt("two_and_four", gettext_noop("2 with honours, 4 pure.")))),
    _reading("P-A4", CARTAS, "Tabela, C 5–6; Combinações que dão \"dobres\", 1–2",
             gettext_noop("Does a hand with no chow (or no suit tiles) earn both the 10 points and the double?"),
             "5 · Por não possuir nenhum chow 10 pontos … 1 — Mão sem chow 1 dobre (total de pontos x 2)",
             (_alt("points_and_double", gettext_noop("Both, as both tables list them.")),
              _alt("double_only", gettext_noop("The double only.")))),
    _reading("P-A5", CARTAS, "Acerto de contas, 1; Mãos-Limite",
             gettext_noop("Does the banker pay or receive double the limit?"),
             "1) O banqueiro sempre paga ou recebe em dobro. … essas combinações dão 4 000 pontos",
             (_alt("banker_doubles_limit", gettext_noop("Yes, always: 8,000.")),
              _alt("limit_per_payment", gettext_noop("No: 4,000 caps every payment.")))),
    _reading("P-A6", CARTAS, "Exemplo de contagem de pontos; Tabela, A 3",
             gettext_noop("The example gives a concealed pong of ones 16 points; the table gives 8."),
             "3 uns de chinas (pong fechado) - = 16 pontos Sub-total de pontos = 52 pontos",
             (_alt("table", gettext_noop("The table governs: 8.")),
              _alt("example", gettext_noop("The example governs: a concealed pong of 1s, 9s or honours is 16.")))
             ),
    _reading("P-A7", CARTAS, "Mãos-Limite",
             gettext_noop("Is 4,000 a cap on every hand, or only the value of the special hands?"),
             "essas combinações dão 4 000 pontos ao jogador que as consegue fazer, o que é considerado como "
             "limite máximo de pontos em uma mão de Mah Jong",
             (_alt("caps_every_hand", gettext_noop("A cap on every hand.")),
              _alt("special_hands_only", gettext_noop("Only the value of the special hands.")))),
    _reading("P-A8", CARTAS, "Tabela, A (aberto / fechado)",
             gettext_noop("Is a kong drawn by the player but laid down for its replacement open or closed?"),
             "ele pode manté-lo fechado na mão (caso em que não tem direito a comprar outra carta) ou, se "
             "preferir, pode \"arriá-lo\" … Úm jogo todo feito na mão (isto é, não arriado durante a mão) é aberto "
             "na mesa com as cartas do meio fechadas.",
             (_alt("record_says", gettext_noop("As the record says: a kong is closed only when declared "
                                               "concealed.")),
              _alt("drawn_is_closed", gettext_noop("Closed whenever its tiles were drawn by the player."),
                   implemented=False))),
    _reading("P-A9", CARTAS, "Como fazer Mah Jong",
             gettext_noop("May a hand hold an undeclared kong as 4 of its 14 cards, or go out as two kongs and "
                          "two chows?"),
             "o Mah Jong … é sempre composto de quatro ou cinco jogos como… 2 kongs e 2 chaus",
             (_alt("four_sets_and_a_pair", gettext_noop("A hand is four sets and a pair, kongs declared.")),
              _alt("book_structure", gettext_noop("As the book: an undeclared kong and a pairless hand."),
                   implemented=False))),
    _reading("P-A10", CARTAS, "Tabela, C 1–4",
             gettext_noop("How do the bonuses for going out combine?"),
             "Por fazer Mah Jong com uma carta descartada 20 pontos / 2 - Por fazer Mah Jong com uma carta do "
             "monte 22 pontos",
             (_alt("highest_one", gettext_noop("One of them, the highest that applies.")),
              _alt("added", gettext_noop("20, plus 2 from the wall, 4 for the only possible card, 10 for the "
                                         "last card.")))),
    _reading("P-A11", CARTAS, "Tabela, C 3",
             gettext_noop("When is the winning card the only possible one?"),
             "Por fazer Mah Jong usando uma única carta possível (todas as cartas similares já tendo sido "
             "descartadas)",
             (_alt("record_says", gettext_noop("When the record says it was the only possible one.")),
              _alt("from_discards", gettext_noop("From the discards of the hand."), implemented=False))),
    _reading("P-A12", CARTAS, "Combinações que dão \"dobres\", last line",
             gettext_noop("What does the garbled last line of the doubles say?"),
             "uma combinação especial (isto é, a mão limite) 4 000 pontos … não se computa mais nenhum ponto na "
             "mão para o jogador que tiver direito a esse dobre.",
             (_alt("limit_hand_flat", gettext_noop("A limit hand is worth 4,000 and nothing else is counted.")),
              _alt("a_further_double", gettext_noop("A double the line lost."), implemented=False))),
    _reading("P-A13", CARTAS, "Acerto de contas; o exemplo",
             gettext_noop("What is rounded to hundreds?"),
             "as frações inferiores a 50 devem ser desprezadas e as iguais ou superiores a 50 devem ser "
             "arredondadas para a centena imediatamente superior",
             (_alt("each_payment", gettext_noop("Each payment, after the banker's doubling.")),
              _alt("hand_value", gettext_noop("Each hand's value and difference, before the banker's doubling."))
              )),
    _reading("P-A14", CARTAS, "Regras complementares, i",
             gettext_noop("Must a winner hold two doubles to go out?"),
             "é comum estabelecer-se que só se possa bater depois de conseguir dois dobres",
             (_alt("not_in_force", gettext_noop("No.")),
              _alt("two_doubles", gettext_noop("Yes: a hand with fewer is not a winning hand.")))),
)

_BY_CODE = {r.code: r for r in BOOK_READINGS}


def book_reading(code: str) -> BookReading | None:
    return _BY_CODE.get(code)


def defaults(book: str) -> dict[str, str]:
    """Every reading of `book` and its default alternative."""
    return {r.code: r.default for r in BOOK_READINGS if r.book == book}
