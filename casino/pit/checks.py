"""The pit's system checks (`manage.py check`, and every `runserver`, `migrate` and test run).

TABLE_MINIMUM_CAPITAL lets a casino set a lower minimum capital for a tier than C-1's default
(docs/rules.md §11): it may only lower it. A minimum above the default, one for a variant or a
tier no rule set has, or one that is not a positive whole number is a setting that does not say
what the casino means, and the project refuses to start with it.
"""
from __future__ import annotations

from django.conf import settings
from django.core.checks import Error

from regulation.capital import most_payable
from regulation.rules import RULE_SETS

HINT = ("TABLE_MINIMUM_CAPITAL is {variant: {stake X of the tier X/2X: a lower minimum}}, e.g. "
        "{'conventional': {25: 300}}; leave a tier out for the default.")


def check_minimum_capital(app_configs=None, **kwargs) -> list[Error]:
    """Each of TABLE_MINIMUM_CAPITAL's minimums: for a variant and a tier of a rule set, a positive
    whole number, at most C-1's default for that tier under each rule set that has it (four
    players: the largest default)."""
    lower = settings.TABLE_MINIMUM_CAPITAL
    if not isinstance(lower, dict) or not all(isinstance(tiers, dict) for tiers in lower.values()):
        return [Error("TABLE_MINIMUM_CAPITAL is not a mapping of variants to tiers.", hint=HINT, id="pit.E001")]
    errors = []
    for variant, tiers in lower.items():
        rule_sets = [rules for rules in RULE_SETS if variant in rules.commission]
        if not rule_sets:
            errors.append(Error(f"TABLE_MINIMUM_CAPITAL names the variant {variant!r}, which no rule set has "
                                f"(conventional, simplified).", hint=HINT, id="pit.E002"))
            continue
        for stake, minimum in tiers.items():
            tier = _tier(variant, stake)
            having = [rules for rules in rule_sets if stake in rules.tiers(variant)]
            if not having:
                errors.append(Error(f"TABLE_MINIMUM_CAPITAL names {tier}, which is not a tier of the variant under "
                                    f"any rule set (Art. 8).", hint=HINT, id="pit.E003"))
                continue
            if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 1:
                errors.append(Error(f"TABLE_MINIMUM_CAPITAL sets {tier} a minimum of {minimum!r}: a minimum is a "
                                    f"positive whole number of currency units.", hint=HINT, id="pit.E004"))
                continue
            default = min(most_payable(rules, variant, stake, 4) for rules in having)
            if minimum > default:
                errors.append(Error(f"TABLE_MINIMUM_CAPITAL sets {tier} a minimum of {minimum}, above the default "
                                    f"of {default} (the most a seat can be made to pay in one jogo): a casino may "
                                    f"only lower the minimum (casino rule C-1).", hint=HINT, id="pit.E005"))
    return errors


def _tier(variant: str, stake) -> str:
    """A tier as the errors name it: "the conventional tier 25/50"."""
    return f"the {variant} tier {stake}/{2 * stake}" if isinstance(stake, int) else f"the {variant} tier {stake!r}"
