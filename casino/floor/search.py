"""Finding things (issue 24 §5): what one search box finds, across tables and days, of what the
person may see. A query is read every way it can be read, and each reading adds its hits:

- a table and a jogo number, "C-01 12", "C-01#12" or "C-01/12": the jogo as it stands (its
  current revision);
- six or more hex digits: the ledger rows whose hash starts with them (jogos, movements, the
  count's rows, the case events, the rotation's entries, the alerts);
- a table and a gaming day, "C-01 2026-11-21": that table-day's boxes;
- a kind and a number, "box 7", "case 3", "alert 12" (in any of the three languages), or a bare
  number "#12": the box, case or alert with that number;
- a table's number: the table; two or more letters: the players whose name holds them, for those
  who may read players' names (casino.pit.privacy: inspectors and managers, every player; a
  supervisor, the players seated at his tables), each linking to the player's page.

Who sees what is the pages' own rule, so that every hit opens, and nothing of a casino the person
is not given is found (pit.access.casinos_of; docs/casinos.md): jogos, movements and players of
the tables the person sees (pit.access.visible_tables) with the pit's view permissions; boxes
and count rows with count.view_box; cases with count.view_case; rotation entries with
count.view_rotation; alerts as the alerts' page shows them (floor.alerts.visible_alerts).

Indexes: a jogo by table and number uses the (table, number, revision) unique index, a box, case
or alert its primary key, a box by day the (table, gaming_day, shift) one. Two readings scan, and
say so here rather than add indexes to the pit's and the count's ledgers from this app: the hash
columns carry no index, so a hash prefix reads each ledger table once (six hex digits make a
chance hit about one in 16 million rows, so it stays exact), and a name is matched anywhere in
it (`icontains`), which no b-tree index serves. A casino's ledger grows by tens of thousands of
rows a day, which a scan reads in milliseconds; if it ever shows, `hash` wants a
`varchar_pattern_ops` index on PostgreSQL (a prefix LIKE uses it) and player names a trigram one.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Max
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _, gettext_noop, pgettext

from casino.count.models import Box, Case, CaseEvent, Count, Decision, ExpectedChange, Rotation, Signature
from casino.pit import privacy
from casino.pit.access import casinos_of, visible_tables
from casino.pit.models import Jogo, Movement, Patron, Table
from casino.terms.vocabulary import alert_rule_name, alert_severity_name, person_name

from .alerts import visible_alerts
from .models import Alert

LIMIT = 20  # hits of one kind; the page says when there are more
MIN_HASH = 6

TABLE_AND_NUMBER = re.compile(r"^(?P<table>[^\s#/]+)\s*(?:[\s#/]\s*)#?\s*(?P<number>\d{1,9})$")
TABLE_AND_DAY = re.compile(r"^(?P<table>\S+)\s+(?P<day>\d{4}-\d{2}-\d{2})$")
KIND_AND_NUMBER = re.compile(r"^(?P<kind>\D+?)\s*#?\s*(?P<number>\d{1,9})$")
BARE_NUMBER = re.compile(r"^#\s*(?P<number>\d{1,9})$|^(?P<plain>\d{1,5})$")
HASH_PREFIX = re.compile(rf"^[0-9a-f]{{{MIN_HASH},64}}$")

# The words a person types before a number, in each language: "box 7", "caixa 7", "佣金箱 7".
KIND_WORDS = {"box": (gettext_noop("box"), gettext_noop("commission box")),
              "case": (gettext_noop("case"), gettext_noop("variance case")),
              "alert": (gettext_noop("alert"),)}


@dataclass(frozen=True)
class Hit:
    """One thing found: its kind and label in people's words, the page that shows it, when."""

    kind: str
    label: str
    url: str
    when: dt.datetime | dt.date | None = None
    detail: str = ""

    @property
    def when_text(self) -> str:
        """A moment in Macau time, or a gaming day, in the language's short format."""
        if isinstance(self.when, dt.datetime):
            return formats.date_format(timezone.localtime(self.when), "SHORT_DATETIME_FORMAT")
        return _day(self.when) if self.when else ""


def find(user: AbstractBaseUser, query: str) -> list[Hit]:
    """Every hit of `query` the user may see, the most exact readings first; no hit twice."""
    text = " ".join(query.split())
    if not text:
        return []
    lowered = text.lower()
    tables = visible_tables(user)
    hits: list[Hit] = []
    if match := TABLE_AND_NUMBER.match(text):
        hits += _jogo(user, tables, match["table"], int(match["number"]))
    if HASH_PREFIX.match(lowered):
        hits += _hash(user, tables, lowered)
    if match := TABLE_AND_DAY.match(text):
        hits += _boxes_of_day(user, match["table"], match["day"])
    if (match := KIND_AND_NUMBER.match(lowered)) and (kind := _kind(match["kind"])):
        hits += _numbered(user, tables, int(match["number"]), kinds=(kind,))
    if match := BARE_NUMBER.match(text):
        hits += _numbered(user, tables, int(match["number"] or match["plain"]), kinds=tuple(KIND_WORDS))
    if not any(char.isdigit() for char in text) or not hits:
        hits += _tables(user, tables, text) + _players(user, tables, text)
    unique, seen = [], set()
    for hit in hits:
        if hit.url not in seen:
            seen.add(hit.url)
            unique.append(hit)
    return unique


def _kind(word: str) -> str | None:
    """"box", "case" or "alert" for a word the person typed, in any of the site's languages."""
    word = word.strip()
    for kind, names in KIND_WORDS.items():
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                if word in {_(name).lower() for name in names}:
                    return kind
    return None


def _day(value: dt.date) -> str:
    return formats.date_format(value, "SHORT_DATE_FORMAT")


# --- The pit: jogos, movements, players, tables ------------------------------------------------

def _jogo_hit(jogo: Jogo, *, current: bool) -> Hit:
    label = (_("Jogo %(number)s at table %(table)s") if current or not jogo.revision
             else _("Jogo %(number)s at table %(table)s, revision %(revision)s")) % {
        "number": jogo.number, "table": jogo.table.number, "revision": jogo.revision}
    return Hit(kind=_("Jogo"), label=label, url=reverse("pit:receipt", args=[jogo.pk]), when=jogo.recorded_at,
               detail=_("recorded by %(person)s") % {"person": person_name(jogo.recorded_by)})


def _jogo(user, tables, table: str, number: int) -> list[Hit]:
    """The jogo as it stands (its highest revision) of the table with that number."""
    if not user.has_perm("pit.view_jogo"):
        return []
    hits = []
    for at_table in tables.filter(number__iexact=table):  # one per casino of the group with that number
        rows = Jogo.objects.filter(table=at_table, number=number)
        latest = rows.aggregate(revision=Max("revision"))["revision"]
        if latest is not None:
            hits += [_jogo_hit(jogo, current=True)
                     for jogo in rows.filter(revision=latest).select_related("table", "recorded_by")]
    return hits


def _tables(user, tables, text: str) -> list[Hit]:
    if not user.has_perm("pit.view_table"):
        return []
    return [Hit(kind=_("Table"), label=_("Table %(table)s") % {"table": table.number},
                url=reverse("pit:table", args=[table.pk]), detail=table.casino.name)
            for table in tables.filter(number__iexact=text).select_related("casino")[:LIMIT]]


def _players(user, tables, text: str) -> list[Hit]:
    """Players whose name holds `text` (two characters at least), those seated last first: every
    player for a person who reads personal data, the players seated at his tables for a
    supervisor, nobody for anyone else (a masked name is not searched). An anonymised player has
    no name to find."""
    if len(text) < 2 or not user.has_perm("pit.view_patron"):
        return []
    if privacy.sees_personal_data(user):
        patrons = Patron.objects.filter(casino__in=casinos_of(user))
    elif user.has_perm(privacy.WITNESS):
        patrons = Patron.objects.filter(seats__game__table__in=user.tables.filter(casino__in=casinos_of(user)))
    else:
        return []
    found = (patrons.filter(name__icontains=text).annotate(last=Max("seats__game__started_at"))
             .order_by(F("last").desc(nulls_last=True), "name", "pk")[:LIMIT])
    return [Hit(kind=_("Player"), label=patron.name, url=reverse("pit:patron", args=[patron.pk]), when=patron.last,
                detail=_("identified") if patron.identified else _("not identified"))
            for patron in found]


# --- Ledger rows by hash prefix ---------------------------------------------------------------

def _hash(user, tables, prefix: str) -> list[Hit]:
    hits: list[Hit] = []
    if user.has_perm("pit.view_jogo"):
        for jogo in (Jogo.objects.filter(table__in=tables, hash__startswith=prefix)
                     .select_related("table", "recorded_by")[:LIMIT]):
            hits.append(_jogo_hit(jogo, current=False))
    if user.has_perm("pit.view_movement") and user.has_perm("pit.view_game"):
        for movement in (Movement.objects.filter(table__in=tables, hash__startswith=prefix)
                         .select_related("table", "recorded_by")[:LIMIT]):
            hits.append(Hit(kind=_("Movement"),
                            label=_("%(kind)s of %(amount)s at table %(table)s, chair %(chair)s") % {
                                "kind": movement.get_kind_display(), "amount": movement.amount,
                                "table": movement.table.number, "chair": movement.chair + 1},
                            url=reverse("pit:game_summary", args=[movement.game_id]), when=movement.recorded_at,
                            detail=_("recorded by %(person)s") % {"person": person_name(movement.recorded_by)}))
    if user.has_perm("count.view_box"):
        for model in (Count, Signature, ExpectedChange, Decision):
            rows = (model.objects.filter(hash__startswith=prefix, box__table__casino__in=casinos_of(user))
                    .select_related("box__table", "recorded_by"))
            for row in rows[:LIMIT]:
                hits.append(Hit(kind=_("Box's chain"), label=_box_label(row.box), when=row.recorded_at,
                                url=reverse("counting:box", args=[row.box_id]),
                                detail=_("recorded by %(person)s") % {"person": person_name(row.recorded_by)}))
    if user.has_perm("count.view_case"):
        for event in (CaseEvent.objects.filter(hash__startswith=prefix, case__box__table__casino__in=casinos_of(user))
                      .select_related("case__box__table", "recorded_by")[:LIMIT]):
            hits.append(Hit(kind=_("Case's chain"), label=_case_label(event.case), when=event.recorded_at,
                            url=reverse("count:case", args=[event.case_id]),
                            detail=_("recorded by %(person)s") % {"person": person_name(event.recorded_by)}))
    if user.has_perm("count.view_rotation"):
        entries = Rotation.objects.filter(table__in=tables, hash__startswith=prefix).select_related("table", "person")
        for entry in entries[:LIMIT]:
            hits.append(Hit(kind=_("Rotation log"),
                            label=_("%(person)s at table %(table)s") % {"person": person_name(entry.person),
                                                                         "table": entry.table.number},
                            url=reverse("count:rotation") + f"?day={entry.gaming_day.isoformat()}",
                            when=entry.gaming_day))
    hits += [_alert_hit(alert) for alert in _alerts(user, tables).filter(hash__startswith=prefix)[:LIMIT]]
    return hits


# --- Boxes, cases, alerts --------------------------------------------------------------------

def _box_label(box: Box) -> str:
    return _("Box of table %(table)s, %(day)s, shift %(shift)s") % {
        "table": box.table.number, "day": _day(box.gaming_day), "shift": box.shift}


def _case_label(case: Case) -> str:
    return _("Case %(number)s: box of table %(table)s, %(day)s, shift %(shift)s") % {
        "number": case.pk, "table": case.box.table.number, "day": _day(case.box.gaming_day), "shift": case.box.shift}


def _box_hit(box: Box) -> Hit:
    return Hit(kind=pgettext("search", "Box"), label=_box_label(box), url=reverse("counting:box", args=[box.pk]),
               when=box.gaming_day)


def _boxes_of_day(user, table: str, day: str) -> list[Hit]:
    try:
        gaming_day = dt.date.fromisoformat(day)
    except ValueError:
        return []
    if not user.has_perm("count.view_box"):
        return []
    return [_box_hit(box) for box in Box.objects.filter(table__number__iexact=table, gaming_day=gaming_day,
                                                        table__casino__in=casinos_of(user))
            .select_related("table")[:LIMIT]]


def _alerts(user, tables):
    """The alerts the person sees, as the alerts' page shows them (alerts.visible_alerts)."""
    return visible_alerts(user).select_related("table")


def _alert_url(alert: Alert) -> str:
    """The alerts' list narrowed to this alert's state, rule and table, at the alert."""
    where = {"table": alert.table_id} if alert.table_id else {}
    query = urlencode({"state": alert.state, "rule": alert.rule, **where})
    return f"{reverse('floor:alerts')}?{query}#alert-{alert.pk}"


def _alert_hit(alert: Alert) -> Hit:
    where = (_("table %(table)s") % {"table": alert.table.number}) if alert.table_id else _("the whole casino")
    return Hit(kind=_("Alert"), label=_("Alert %(number)s: %(rule)s, %(where)s") % {
        "number": alert.pk, "rule": alert_rule_name(alert.rule), "where": where}, url=_alert_url(alert),
        when=alert.raised_at, detail=alert_severity_name(alert.severity))


def _numbered(user, tables, number: int, *, kinds: tuple[str, ...]) -> list[Hit]:
    hits: list[Hit] = []
    if "box" in kinds and user.has_perm("count.view_box"):
        hits += [_box_hit(box) for box in Box.objects.filter(pk=number, table__casino__in=casinos_of(user))
                 .select_related("table")]
    if "case" in kinds and user.has_perm("count.view_case"):
        found = Case.objects.filter(pk=number, box__table__casino__in=casinos_of(user)).select_related("box__table")
        hits += [Hit(kind=_("Case"), label=_case_label(case), url=reverse("count:case", args=[case.pk]),
                     when=case.opened_at) for case in found]
    if "alert" in kinds:
        hits += [_alert_hit(alert) for alert in _alerts(user, tables).filter(pk=number)]
    return hits


def may_search(user: AbstractBaseUser) -> bool:
    """Whether the search box is for this person: staff who see a table, a box or a case."""
    return user.is_authenticated and any(user.has_perm(code) for code in (
        "pit.view_table", "count.view_box", "count.view_case", "count.view_rotation", "floor.view_alert"))


__all__ = ["Hit", "LIMIT", "Table", "find", "may_search"]
