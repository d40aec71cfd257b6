"""The migrations and the roles: a migration keeps a frozen copy of the code it runs, every
migrate sets each role to exactly its permissions (casino/pit/roles.py), and so the admin shows
the roles' groups without letting anyone change them."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User

from casino.pit.roles import ROLES

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = sorted(path for path in ROOT.glob("casino/*/migrations/*.py") if path.name != "__init__.py")


def imported(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            modules.add("." * node.level + (node.module or ""))
    return modules


def test_no_migration_imports_the_projects_own_code():
    """A migration runs, years later, as it ran the first time: the code that may change since
    (the roles, the engine, the models) is copied into it."""
    assert len(MIGRATIONS) > 20
    for path in MIGRATIONS:
        live = {module for module in imported(path) if module.startswith((".", "casino", "regulation"))}
        assert not live, (path.relative_to(ROOT), live)


@pytest.mark.django_db
def test_after_migrate_every_role_holds_exactly_its_permissions():
    assert set(Group.objects.values_list("name", flat=True)) == set(ROLES)
    for role, codes in ROLES.items():
        held = {f"{app}.{code}" for app, code in Group.objects.get(name=role).permissions.values_list(
            "content_type__app_label", "codename")}
        assert held == set(codes), role


@pytest.mark.django_db
def test_the_roles_groups_are_read_only_in_the_admin(client):
    client.force_login(User.objects.create_superuser("root", password="correct horse battery"))
    dealer = Group.objects.get(name="dealer")
    assert client.get("/admin/auth/group/").status_code == 200
    page = client.get(f"/admin/auth/group/{dealer.pk}/change/")
    assert page.status_code == 200 and "Can open games, record jogos" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()  # shown, with nothing to save

    assert client.get("/admin/auth/group/add/").status_code == 403
    assert client.post(f"/admin/auth/group/{dealer.pk}/change/", {"name": "croupier"}).status_code == 403
    assert client.post(f"/admin/auth/group/{dealer.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Group.objects.filter(name="dealer").exists()


def after(chairs, first_banker, banker, round_wind, banker_moves):
    projection = importlib.import_module("casino.pit.migrations.0005_table_game_projection")
    return projection._after(chairs, first_banker, banker, round_wind, banker_moves=banker_moves)


def test_the_projection_migration_moves_the_bank_as_art_3_says():
    """pit 0005 fills each game's banker and round wind with its own copy of Art. 3."""
    assert after((0, 1, 2, 3), 0, 1, "E", banker_moves=False) == (1, "E")  # I-1: the banker keeps the bank
    assert after((0, 1, 2, 3), 0, 1, "E", banker_moves=True) == (2, "E")  # to the banker's right
    assert after((0, 1, 2, 3), 0, 3, "E", banker_moves=True) == (0, "S")  # I-2: back to the first banker
    assert after((0, 1, 3), 0, 1, "W", banker_moves=True) == (3, "W")  # I-17: over the empty chair
    assert after((0, 1, 3), 0, 3, "N", banker_moves=True) == (0, "N")  # the North round is over
