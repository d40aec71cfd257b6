# Quick start: `make run` and `make test`. Both set the machine up first (scripts/bootstrap).
# Every target here is for a developer's machine: Django's development mode (DJANGO_DEBUG=1),
# which production never has (casino/settings.py). The tests set it in pyproject.toml.
PYTHON := .venv/bin/python
DEVELOPMENT := DJANGO_DEBUG=1
PYTEST_ARGS ?=

.PHONY: bootstrap run test messages

bootstrap:
	bash scripts/bootstrap
	$(DEVELOPMENT) $(PYTHON) manage.py compilemessages --ignore=.venv --verbosity 0

# The floor's tick (the alerts that time raises, clears and escalates) runs beside the server,
# once a minute, with no broker (docs/operations.md); it stops when the server stops.
run: bootstrap
	$(DEVELOPMENT) $(PYTHON) manage.py migrate --noinput
	$(DEVELOPMENT) $(PYTHON) manage.py demo
	$(DEVELOPMENT) $(PYTHON) manage.py floor_tick --every 60 & tick=$$!; trap 'kill $$tick 2>/dev/null' EXIT INT TERM; \
	  $(DEVELOPMENT) $(PYTHON) manage.py runserver 0.0.0.0:8000

test: bootstrap
	$(PYTHON) -m pytest $(PYTEST_ARGS)

# Refresh every app's catalogues (casino/*/locale) from the code and templates; translate the new
# entries, then `make` compiles them (docs/languages.md).
messages: bootstrap
	$(DEVELOPMENT) $(PYTHON) manage.py makemessages -l pt -l zh_Hant --no-obsolete --ignore=.venv --ignore=tests \
	  --ignore=benchmarks --ignore=docs --ignore=fixtures --ignore=scripts
