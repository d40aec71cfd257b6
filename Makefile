# Quick start: `make run` and `make test`. Both set the machine up first (scripts/bootstrap).
PYTHON := .venv/bin/python
PYTEST_ARGS ?=

.PHONY: bootstrap run test

bootstrap:
	bash scripts/bootstrap
	$(PYTHON) manage.py compilemessages --ignore=.venv --verbosity 0

run: bootstrap
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py demo
	$(PYTHON) manage.py runserver 0.0.0.0:8000

test: bootstrap
	$(PYTHON) -m pytest $(PYTEST_ARGS)
