"""How long a text a person types may be: one limit for each kind of text, read alike by the web
forms and by the API's serializers, so that a screen and a program are held to the same; and the
largest id a row may have, which an id typed into a filter may not pass."""
from __future__ import annotations

NAME_MAX_LENGTH = 80  # a player's name, as the table's seating form takes it (its column holds 100)
REASON_MAX_LENGTH = 2000  # why: a correction, a decision on it, a recount, a reopened day; a flag's note
NOTE_MAX_LENGTH = 4000  # a note in a file: a variance case's notes and steps, a comment on a flag
ROW_ID_MAX = 2**63 - 1  # the largest id a database row has (a 64-bit integer)
