"""The API's list filters (REST framework's DjangoFilterBackend, django-filter), with a relation
filtered by its id only.

django-filter's own filter of a relation (`?table=7`) checks the id against every row of the
related model and answers 400 "Select a valid choice" for an id that does not exist, but an empty
list for another casino's: the difference would tell a person which ids exist at casinos he is not
given (docs/casinos.md). Filtered by the id alone, both answer the same empty list; the rows a
person may see are the viewset's own queryset, scoped to his casinos."""
from __future__ import annotations

import django_filters
from django import forms
from django.db import models
from django_filters.filterset import FILTER_FOR_DBFIELD_DEFAULTS
from django_filters.rest_framework import DjangoFilterBackend, FilterSet

from casino.limits import ROW_ID_MAX


class IdFilter(django_filters.NumberFilter):
    """A row's id: a whole number from 1 to the largest id a row may have."""

    field_class = forms.IntegerField


BY_ID = {"filter_class": IdFilter, "extra": lambda field: {"min_value": 1, "max_value": ROW_ID_MAX}}


class IdFilterSet(FilterSet):
    """A FilterSet whose relations (`table`, `game`, `jogo`, `patron`...) filter by the id alone."""

    FILTER_DEFAULTS = {**FILTER_FOR_DBFIELD_DEFAULTS, models.ForeignKey: BY_ID, models.OneToOneField: BY_ID}


class IdFilterBackend(DjangoFilterBackend):
    """REST framework's filter backend, making its filter sets from `IdFilterSet`."""

    filterset_base = IdFilterSet
