# Traditional Chinese: year, month, day; the 24-hour clock.
DATE_FORMAT = "Y年n月j日"  # 2026年11月23日
TIME_FORMAT = "H:i"  # 17:08
DATETIME_FORMAT = "Y年n月j日 H:i"  # 2026年11月23日 17:08
YEAR_MONTH_FORMAT = "Y年n月"  # 2026年11月
MONTH_DAY_FORMAT = "n月j日"  # 11月23日
SHORT_DATE_FORMAT = "Y年n月j日"  # 2026年11月23日
SHORT_DATETIME_FORMAT = "Y年n月j日 H:i"  # 2026年11月23日 17:08
