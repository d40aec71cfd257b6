"""Who may act at which table (casino/pit/access.py): a user's permissions are his own and his
groups', read in one query; a table read with its assignment needs no second query, and a table
marked for someone else proves nothing."""
import pytest
from django.contrib.auth.models import Permission, User
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from casino.pit.access import require, visible_tables_marked
from tests.pit import next_record, seat, staff

pytestmark = pytest.mark.django_db


def fresh(person: User) -> User:
    return User.objects.get(pk=person.pk)  # no permission cached on the instance


def test_a_users_permissions_are_his_own_and_his_groups_read_in_one_query():
    people, t1, t2 = staff()
    dealer = people["dealer"]
    dealer.user_permissions.add(Permission.objects.get(codename="flag_jogo"))

    dealer = fresh(dealer)
    with CaptureQueriesContext(connection) as queries:
        held = dealer.get_all_permissions()
        assert dealer.has_perm("pit.flag_jogo") and dealer.has_perm("pit.record_at_table")
    assert len(queries.captured_queries) == 1
    assert {"pit.flag_jogo", "pit.record_at_table"} <= held
    assert not dealer.has_perm("pit.approve_amendment")  # a supervisor's, not the dealer's
    assert not fresh(people["other_dealer"]).has_perm("pit.flag_jogo")  # his alone, not the group's


def test_an_inactive_user_holds_no_permission_and_a_superuser_every_one():
    people, t1, t2 = staff()
    people["manager"].is_active = False
    people["manager"].save()
    assert fresh(people["manager"]).get_all_permissions() == set()
    root = User.objects.create_superuser("root", password="correct horse battery")
    assert len(fresh(root).get_all_permissions()) == Permission.objects.count()


def test_a_table_read_with_its_assignment_needs_no_query_and_another_users_reading_proves_nothing():
    people, t1, t2 = staff()
    dealer, other, inspector = fresh(people["dealer"]), fresh(people["other_dealer"]), fresh(people["inspector"])
    read = visible_tables_marked(dealer).get(pk=t1.pk)
    with CaptureQueriesContext(connection) as queries:
        require(dealer, "pit.record_at_table", read)
    assert queries.captured_queries == []
    assert not visible_tables_marked(other).filter(pk=t1.pk).exists()  # T1 is not his to see

    dealers_t2 = visible_tables_marked(other).get(pk=t2.pk)  # marked for the other dealer
    with pytest.raises(PermissionDenied):
        require(dealer, "pit.record_at_table", dealers_t2)  # the mark is not the dealer's: asked, and refused
    assert not hasattr(visible_tables_marked(inspector).get(pk=t1.pk), "assigned_user")  # needs no assignment
    assert [t.pk for t in visible_tables_marked(dealer)] == [t1.pk]


def test_recording_a_jogo_through_the_api_takes_a_fixed_number_of_queries():
    """The token with its user and his permissions, the table marked as his, then the service's four statements
    (SQLite's BEGIN and COMMIT are not counted)."""
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
    assert counts == [6] * 3


def test_a_token_brings_its_user_and_his_permissions_in_one_query_and_a_bad_or_inactive_one_is_refused():
    people, t1, t2 = staff()
    dealer = people["dealer"]
    dealer.user_permissions.add(Permission.objects.get(codename="flag_jogo"))
    token = Token.objects.create(user=dealer).key
    api = APIClient()

    api.credentials(HTTP_AUTHORIZATION="Token " + token)
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/api/v1/jogos/").status_code == 200
    assert "pit_table_staff" in queries.captured_queries[-1]["sql"]  # the jogos of his tables: he is pit staff
    assert not any("auth_permission" in q["sql"] for q in queries.captured_queries[1:])  # read with the token
    from casino.pit.access import TokenAuthentication
    user, auth = TokenAuthentication().authenticate_credentials(token)
    assert (user, auth.key) == (dealer, token)
    assert {"pit.flag_jogo", "pit.record_at_table", "pit.view_jogo"} <= user._perm_cache
    assert "pit.approve_amendment" not in user._perm_cache

    api.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    refused = api.get("/api/v1/jogos/")  # 403: the session, asked first, names no scheme (REST framework)
    assert refused.status_code == 403 and refused.json()["errors"][0]["message"] == "Invalid token."
    dealer.is_active = False
    dealer.save()
    api.credentials(HTTP_AUTHORIZATION="Token " + token)
    refused = api.get("/api/v1/jogos/")  # 403: the session, asked first, names no scheme (REST framework)
    assert refused.status_code == 403 and refused.json()["errors"][0]["message"] == "User inactive or deleted."
