"""The reports app stores nothing of its own: a gaming day's state and its log of closing and
reopening are the pit's (`casino.pit.models.GamingDay`, `DayEvent`), and the daily report reads
its figures from the pit's ledger (`selectors.py`)."""
