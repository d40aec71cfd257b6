"""The most a seat can be made to pay in one jogo: the casino's default minimum capital (C-1,
docs/rules.md §11).

The Portaria caps what a winner receives (Art. 9(a)(4), (b)(3)) and is silent on a loser whose
capital cannot cover what he owes. The casino's rule C-1 asks every seat to hold, before a jogo
starts, at least the most it can be made to pay in that jogo. That figure is not copied by hand:
it is worked out here by settling every jogo that could cost a seat the most, with the engine's own
settlement (`settlement.py`), under the table's rule set:

- every winner, the banker included (Art. 7: the banker pays and receives double), at the rule
  set's grade cap (Art. 6(a)(3); 1 fán in the simplified game, I-5);
- with no pay-all, and with each loser liable for a pay-all (Art. 10, I-9: the liable seat pays
  every loser's due, the banker's double included);
- every seat declaring a false win (Art. 10(a)(7)–(8), (b)(3), I-10);
- the winner's capital never binding (the cap only ever lowers what the losers pay).

The answer is the largest amount any one seat pays in any of them. With four players it is a
pay-all on a banker's win at the grade cap: the liable seat pays three doubles of the top share.
"""
from __future__ import annotations

from .record import MAX_AMOUNT
from .rules import RuleSet
from .seats import SEATS
from .settlement import Settlement, settle_false_win, settle_win


def most_payable(rules: RuleSet, variant: str, stake: int, players: int = 4) -> int:
    """The most one seat can be made to pay in one jogo at the tier `stake`/2×`stake` of
    `variant` under `rules`, with `players` seated (2 to 4)."""
    if players not in (2, 3, 4):
        raise ValueError(f"a game seats 2 to 4 players, not {players}")
    seated = SEATS[:players]
    unbounded = dict.fromkeys(seated, MAX_AMOUNT)  # no winner's cap binds
    grade = rules.max_fan[variant]
    settlements: list[Settlement] = []
    for winner in seated:
        for liable in (None, *(seat for seat in seated if seat != winner)):
            settlements.append(settle_win(rules=rules, variant=variant, stake=stake, fan=grade, winner=winner,
                                          capital=unbounded, pay_all=liable))
    for offender in seated:
        settlements.append(settle_false_win(rules=rules, variant=variant, stake=stake, offender=offender,
                                            capital=unbounded))
    return max(-min(settlement.net.values()) for settlement in settlements)
