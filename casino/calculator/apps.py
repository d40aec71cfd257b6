from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CalculatorConfig(AppConfig):
    """The hand calculator: one hand scored side by side under the Portaria's rule sets and the
    classical rule books, a training tool for new dealers and inspectors."""

    name = "casino.calculator"
    label = "calculator"
    verbose_name = _("Hand calculator")
