"""The four roles of the pit as Django groups, with the permissions each holds.

- dealer: opens games and records jogos at the tables he is assigned to;
- supervisor: what a dealer does, plus opening and closing tables, choosing the rule set a table
  runs under between games, recording the buy-ins and cash-outs he witnesses, proposing
  amendments and deciding on other people's, confirming the refused attempts of others at his
  tables;
- inspector: reads every table, jogo, refusal and amendment, flags jogos, comments on flags and
  resolves other people's; never writes the ledger;
- manager: reads every table, decides on amendments, comments on and resolves flags, reads the
  daily report (casino/reports) and closes and reopens gaming days; inspectors read the daily report too;
- counter: counts the commission boxes of ended table-shifts and signs the counts (casino/count)
  and nothing else: no table, jogo or report. The count's services also refuse a counter who
  worked at the box's table that gaming day.

Supervisors keep the rotation log (who deals and supervises at which table, when); inspectors
and managers read it and the variance cases, add notes to cases, mark them explained or
escalate them; only a manager resolves a case, approves a recount of a box whose count agreed, and
accepts a recount as the box's figure of record. Inspectors and managers open suspicious-transaction
cases on players, write notes and decide them; only a manager escalates one to the financial
intelligence office (casino/aml).

Where a permission is "at assigned tables", `access.py` checks the assignment too.
"""
DEALER, SUPERVISOR, INSPECTOR, MANAGER, COUNTER = "dealer", "supervisor", "inspector", "manager", "counter"

PIT_STAFF = ["pit.record_at_table", "pit.view_table", "pit.view_game", "pit.view_jogo", "pit.view_movement"]
READ_ALL = ["pit.view_all_tables", "pit.view_table", "pit.view_game", "pit.view_jogo", "pit.view_movement",
            "pit.view_amendment", "pit.view_refusal", "pit.view_flag"]
# Inspectors and managers comment on flags and resolve those somebody else raised.
FLAG_LIFE = ["pit.view_flagcomment", "pit.add_flagcomment", "pit.resolve_flag"]
# The count (casino/count): cases and the rotation log, read and worked by inspectors and managers.
CASES = ["count.view_rotation", "count.view_box", "count.view_case", "count.work_case"]
# The floor's alerts (casino/floor): seen and acknowledged by supervisors (at their tables),
# inspectors and managers; dealers and counters have none.
ALERTS = ["floor.view_alert", "floor.acknowledge_alert"]
# Players as people (docs/money.md): supervisors seat players and identify them for the movements
# they witness (and see their names at their tables); inspectors and managers see players' personal
# data. Everyone else sees names and document numbers masked (casino/pit/privacy.py).
PATRONS_WITNESS = ["pit.view_patron", "pit.add_patron", "pit.identify_patron"]
PATRONS_READ = ["pit.view_patron", "pit.view_personal_data", "pit.view_movementrefusal", "pit.view_documentread",
                "pit.view_patronchange"]
# Suspicious-transaction cases (casino/aml, docs/aml.md): inspectors and managers open them, write
# notes and decide them; only a manager escalates one to the financial intelligence office.
AML = ["aml.view_suspicioncase", "aml.work_suspicioncase"]

ROLES = {
    DEALER: PIT_STAFF,
    SUPERVISOR: PIT_STAFF + ["pit.open_close_table", "pit.change_rule_set", "pit.move_money",
                             "pit.view_amendment", "pit.view_refusal",
                             "pit.propose_amendment", "pit.approve_amendment", "pit.confirm_refusal",
                             "count.view_rotation", "count.add_rotation", "pit.view_flag"] + ALERTS
    + PATRONS_WITNESS,
    INSPECTOR: READ_ALL + FLAG_LIFE + CASES + ALERTS + PATRONS_READ + AML + ["pit.flag_jogo", "pit.view_daily_report"],
    MANAGER: READ_ALL + FLAG_LIFE + CASES + ALERTS + PATRONS_READ + ["pit.approve_amendment", "pit.view_daily_report",
                                                      "pit.close_gaming_day", "pit.view_gamingday",
                                                      "pit.view_dayevent", "count.resolve_case",
                                                      "count.decide_recount",
                                                      "floor.acknowledge_escalated_alert"]
    + AML + ["aml.escalate_suspicioncase"],
    COUNTER: ["count.view_box", "count.count_box"],
}


def sync_groups(apps=None, schema_editor=None) -> None:
    """Create or update the groups, each with exactly its permissions: run after every migrate
    (apps.py), so a group changed by hand is set back; the migrations keep frozen copies."""
    from django.contrib.auth.management import create_permissions

    if apps is None:
        from django.apps import apps as global_apps
        apps = global_apps
    for config in apps.get_app_configs():
        # create_permissions skips an app config without models_module, which a migration's
        # historical apps lack; the real app configs keep theirs (a flush's post_migrate needs it).
        kept = getattr(config, "models_module", None)
        config.models_module = kept or True
        create_permissions(config, verbosity=0)
        config.models_module = kept
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    # A permission whose model or app a migration has not made yet is granted when a later
    # migration calls this again, and in any case after every migrate (apps.py, post_migrate).
    known = {f"{app}.{code}": pk for pk, app, code in
             Permission.objects.values_list("pk", "content_type__app_label", "codename")}
    for role, codes in ROLES.items():
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.set([known[code] for code in codes if code in known])
