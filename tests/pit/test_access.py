"""Who may act at which table (casino/pit/access.py): a user's permissions are his own and his
groups', read by Django's own ModelBackend; API tokens are REST framework's own; pit staff act
only at the tables they are assigned to, inspectors and managers at every table."""
import pytest
from django.contrib.auth.models import Permission, User
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from casino.pit.access import require, visible_tables
from tests.builders.pit import next_record, seat, staff

pytestmark = pytest.mark.django_db


def fresh(person: User) -> User:
    return User.objects.get(pk=person.pk)  # no permission cached on the instance


def test_a_users_permissions_are_his_own_and_his_groups():
    people, t1, t2 = staff()
    dealer = people["dealer"]
    dealer.user_permissions.add(Permission.objects.get(codename="flag_jogo"))

    dealer = fresh(dealer)
    assert {"pit.flag_jogo", "pit.record_at_table"} <= dealer.get_all_permissions()
    assert not dealer.has_perm("pit.approve_amendment")  # a supervisor's, not the dealer's
    assert not fresh(people["other_dealer"]).has_perm("pit.flag_jogo")  # his alone, not the group's


def test_an_inactive_user_holds_no_permission_and_a_superuser_every_one():
    people, t1, t2 = staff()
    people["manager"].is_active = False
    people["manager"].save()
    assert fresh(people["manager"]).get_all_permissions() == set()
    root = User.objects.create_superuser("root", password="correct horse battery")
    assert len(fresh(root).get_all_permissions()) == Permission.objects.count()


def test_pit_staff_see_and_act_at_their_own_tables_and_inspectors_at_every_table():
    people, t1, t2 = staff()
    dealer, other, inspector = fresh(people["dealer"]), fresh(people["other_dealer"]), fresh(people["inspector"])
    assert list(visible_tables(dealer)) == [t1]
    assert list(visible_tables(other)) == [t2]
    assert set(visible_tables(inspector)) == {t1, t2}
    assert not visible_tables(fresh(people["manager"])).exclude(pk__in=[t1.pk, t2.pk]).exists()

    require(dealer, "pit.record_at_table", t1)
    with pytest.raises(PermissionDenied, match="not assigned to table T2"):
        require(dealer, "pit.record_at_table", t2)
    with pytest.raises(PermissionDenied, match="role does not allow"):
        require(inspector, "pit.record_at_table", t1)  # every table to see, none to record at
    require(inspector, "pit.flag_jogo", t2)  # no assignment needed


def test_recording_a_jogo_through_the_api_takes_a_fixed_number_of_queries():
    """REST framework's token with its user (1), Django's reading of his own and his groups'
    permissions (2), the table and his assignment to it (2), then the service's six statements
    (tests/pit/test_projection.py: the rotation's check and the floor's alerts among them;
    SQLite's BEGIN and COMMIT are not counted)."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=people["dealer"]).key)
    counts = []
    for number in range(1, 4):
        record = next_record(game)
        with CaptureQueriesContext(connection) as queries:
            answer = api.post(f"/api/v1/tables/{t1.pk}/jogos/", record, format="json",
                              HTTP_JOGO_NUMBER=str(number), HTTP_IDEMPOTENCY_KEY=f"key-{number}")
        assert answer.status_code == 201, answer.content
        counts.append(len([q for q in queries.captured_queries
                           if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]))
    assert counts == [11] * 3


def test_a_token_brings_its_user_and_a_bad_or_inactive_one_is_refused():
    people, t1, t2 = staff()
    dealer = people["dealer"]
    token = Token.objects.create(user=dealer).key
    api = APIClient()

    api.credentials(HTTP_AUTHORIZATION="Token " + token)
    answer = api.get("/api/v1/jogos/")
    assert answer.status_code == 200 and answer.wsgi_request.user == dealer

    api.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    refused = api.get("/api/v1/jogos/")  # 403: the session, asked first, names no scheme (REST framework)
    assert refused.status_code == 403 and refused.json()["errors"][0]["message"] == "Invalid token."
    dealer.is_active = False
    dealer.save()
    api.credentials(HTTP_AUTHORIZATION="Token " + token)
    refused = api.get("/api/v1/jogos/")  # 403: the session, asked first, names no scheme (REST framework)
    assert refused.status_code == 403 and refused.json()["errors"][0]["message"] == "User inactive or deleted."
