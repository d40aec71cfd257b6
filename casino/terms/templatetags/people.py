"""`{% load people %}{{ jogo.recorded_by|person }}`: a member of staff by full name (terms.person_name)."""
from django import template

from casino.terms.vocabulary import person_name

register = template.Library()
register.filter("person", person_name)
