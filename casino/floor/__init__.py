"""The floor, live: every table on one screen (`live_views`, `consumers`), the alerts that wait
for a person (`models`, `rules`, `alerts`), the search box (`search`) and the scheduled work
(`tasks`). The floor reads the pit, the count and the audit and is read by none of them: it hears
the pit's and the count's `table_event` (casino/pit/signals.py)."""
