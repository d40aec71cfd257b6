# Portuguese: day, month, year; the 24-hour clock.
DATE_FORMAT = r"j \d\e F \d\e Y"  # 23 de novembro de 2026
TIME_FORMAT = "H:i"  # 17:08
DATETIME_FORMAT = r"j \d\e F \d\e Y, H:i"  # 23 de novembro de 2026, 17:08
YEAR_MONTH_FORMAT = r"F \d\e Y"  # novembro de 2026
MONTH_DAY_FORMAT = r"j \d\e F"  # 23 de novembro
SHORT_DATE_FORMAT = "d/m/Y"  # 23/11/2026
SHORT_DATETIME_FORMAT = "d/m/Y H:i"  # 23/11/2026 17:08
