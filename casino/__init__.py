__version__ = "0.1.0"  # the software version the daily report prints (with the git commit when known)
