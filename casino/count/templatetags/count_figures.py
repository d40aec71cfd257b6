"""How the count's figures read: a variance with its sign, "+50" over and "−30" short."""
from django import template

register = template.Library()


@register.filter
def signed(value) -> str:
    """A variance with its sign (the true minus sign, U+2212); empty for None."""
    if value is None or value == "":
        return ""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


@register.filter
def variance_class(value) -> str:
    """"over", "short" or "exact", for the variance's colour."""
    if value is None or value == "":
        return ""
    return "over" if value > 0 else "short" if value < 0 else "exact"
