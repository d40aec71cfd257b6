# Quick start: `make run` and `make test`. Both set the machine up first (scripts/bootstrap).
PYTHON := .venv/bin/python
PYTEST_ARGS ?=

.PHONY: bootstrap run test messages

bootstrap:
	bash scripts/bootstrap
	$(PYTHON) manage.py compilemessages --ignore=.venv --verbosity 0

run: bootstrap
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py demo
	$(PYTHON) manage.py runserver 0.0.0.0:8000

test: bootstrap
	$(PYTHON) -m pytest $(PYTEST_ARGS)

# Refresh the vocabulary's catalogues (casino/terms/locale) from regulation/, casino/terms/ and
# casino/pit/services.py and errors.py; translate the new entries, then `make` compiles them (README, "Languages").
messages: bootstrap
	$(PYTHON) manage.py makemessages -l pt -l zh_Hant --no-obsolete --ignore=.venv --ignore=tests \
	  --ignore=benchmarks --ignore=docs --ignore=fixtures --ignore=scripts
