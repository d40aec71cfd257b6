from .celery import app as celery_app

__version__ = "0.1.0"  # the software version the daily report prints (with the git commit when known)

__all__ = ["__version__", "celery_app"]
