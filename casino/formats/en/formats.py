# English as written in Macau and Hong Kong: day, month, year; the 24-hour clock.
DATE_FORMAT = "j M Y"  # 23 Nov 2026
TIME_FORMAT = "H:i"  # 17:08
DATETIME_FORMAT = "j M Y, H:i"  # 23 Nov 2026, 17:08
YEAR_MONTH_FORMAT = "F Y"  # November 2026
MONTH_DAY_FORMAT = "j F"  # 23 November
SHORT_DATE_FORMAT = "Y-m-d"  # 2026-11-23
SHORT_DATETIME_FORMAT = "Y-m-d H:i"  # 2026-11-23 17:08
