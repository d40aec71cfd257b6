"""How dates and times read in each of the site's languages (settings.FORMAT_MODULE_PATH).

Every language shows the 24-hour clock, as casino staff and the regulation's own documents do;
Django's English default ("Nov. 23, 2026, 5:08 p.m.") does not. Times are in the current time
zone, which is settings.TIME_ZONE, Macau. What a module leaves out (input formats, the first
day of the week) is Django's own for that language.
"""
