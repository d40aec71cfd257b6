"""The rules of Mah-Jong as Macau's Portaria n.º 135/91/M fixes them. Pure Python, no Django.

    >>> from regulation import read_record, score
    >>> result = score(read_record(record_dict))
    >>> result.as_dict()        # the output of docs/record-format.md
"""
from .errors import Breach, MalformedRecord, RegulationError
from .jogo import Result, score
from .record import Record, read_record
from .rules import CURRENT, DEFAULT, PORTARIA_135_91_M, RULE_SETS, RuleSet, UnknownRuleSet, rule_set

__all__ = ["Breach", "CURRENT", "DEFAULT", "MalformedRecord", "PORTARIA_135_91_M", "RULE_SETS", "Record",
           "RegulationError", "Result", "RuleSet", "UnknownRuleSet", "read_record", "rule_set", "score"]
