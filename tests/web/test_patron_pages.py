"""The players' screens (issue 25 §2, casino/pit/patron_views.py): the list, a player's page, his
identification and the seating form's picker, in three languages, each person seeing what his
role may see."""
import datetime as dt

import pytest
from django.urls import reverse

from casino.pit import patrons, services
from casino.pit.models import Casino, DocumentRead, Patron
from tests.builders.pit import NOON, table, user
from tests.builders.words import page, read, wrong_words

IDENTITY = {"document_type": "hong_kong_id", "document_number": "A123456(3)", "document_country": "HK",
            "date_of_birth": dt.date(1980, 5, 17), "nationality": "CN"}
GOOD = {"document_type": "macau_id", "document_number": "1234567 8", "document_country": "MO",
        "date_of_birth": "1970-01-02", "nationality": "MO"}


@pytest.fixture
def seated(people):
    """Chan Tai Man, identified, and Wong, by name, seated at T1 in a game in progress with two more."""
    staff, t1, _t2 = people
    lisboa = Casino.objects.get(name="Casino Lisboa")
    chan = patrons.create_patron(casino=lisboa, user=staff["inspector"], name="Chan Tai Man", **IDENTITY)
    wong = patrons.create_patron(casino=lisboa, user=staff["supervisor"], name="Wong Siu Ming")
    game = services.start_game(table=t1, user=staff["supervisor"], first_banker=0, at=NOON, players=[
        {"chair": 0, "patron": chan.pk, "capital": 5000}, {"chair": 1, "patron": wong.pk, "capital": 5000},
        {"chair": 2, "name": "Lei Siu Ling", "capital": 5000}, {"chair": 3, "name": "Rui Lopes", "capital": 5000}])
    services.move_money(game=game, user=staff["supervisor"], chair=0, kind="buy_in", amount=800, at=NOON)
    return staff, t1, chan, wong


WORDS = {
    "en": {"pit:patrons": "Players", "pit:patron": "Buy-ins and cash-outs by gaming day",
           "pit:patron_identify": "Record the identification"},
    "pt": {"pit:patrons": "Parceiros", "pit:patron": "Entradas e levantamentos de capital por dia de jogo",
           "pit:patron_identify": "Registar a identificação"},
    "zh-hant": {"pit:patrons": "玩家", "pit:patron": "按博彩日列出的買入及兌出", "pit:patron_identify": "記錄身份資料"},
}


@pytest.mark.parametrize("language", ["en", "pt", "zh-hant"])
@pytest.mark.parametrize("name", ["pit:patrons", "pit:patron", "pit:patron_identify"])
def test_the_pages_say_their_words_in_each_language(client, seated, language, name):
    """Needs the compiled catalogues (casino/terms/locale) for Portuguese and Chinese."""
    staff, _t1, chan, _wong = seated
    url = reverse(name) if name == "pit:patrons" else reverse(name, args=[chan.pk])
    # Inspectors read every player; supervisors identify the players at their tables.
    html = page(client, staff["supervisor" if name == "pit:patron_identify" else "inspector"], language, url)
    assert WORDS[language][name] in html
    if language != "en":  # what this page says, without the site's menu and what people typed
        main = html[html.index("<main>"):html.index("</main>")]
        texts = [text.replace("Chan Tai Man", "").replace("Wong Siu Ming", "").replace("Lei Siu Ling", "")
                 for text in read(main)]
        assert wrong_words(texts, language) == []


def test_an_inspector_sees_the_document_and_the_read_is_logged(client, seated):
    staff, _t1, chan, _wong = seated
    client.force_login(staff["inspector"])
    html = client.get(reverse("pit:patron", args=[chan.pk])).content.decode()
    assert "A123456(3)" in html and "1980-05-17" in html and "Chan Tai Man" in html
    read = DocumentRead.objects.get()
    assert (read.patron, read.read_by, read.purpose) == (chan, staff["inspector"], "pit:patron")
    # The next reader of the page sees that read in the log.
    client.force_login(staff["manager"])
    html = client.get(reverse("pit:patron", args=[chan.pk])).content.decode()
    assert "pit:patron" in html and DocumentRead.objects.count() == 2


def test_an_inspector_finds_a_player_by_document_number(client, seated):
    staff, _t1, chan, wong = seated
    client.force_login(staff["inspector"])
    html = client.get(reverse("pit:patrons"), {"q": "a1234563"}).content.decode()
    assert reverse("pit:patron", args=[chan.pk]) in html and reverse("pit:patron", args=[wong.pk]) not in html
    assert "A123456(3)" not in html  # the list masks it: the full number is read on the player's page
    assert not DocumentRead.objects.exists()


def test_a_supervisor_sees_names_at_his_table_and_no_document(client, seated):
    staff, _t1, chan, _wong = seated
    client.force_login(staff["supervisor"])
    html = client.get(reverse("pit:patrons"), {"q": "a1234563"}).content.decode()
    assert reverse("pit:patron", args=[chan.pk]) not in html  # by name only
    html = client.get(reverse("pit:patrons"), {"q": "chan"}).content.decode()
    assert "Chan Tai Man" in html
    html = client.get(reverse("pit:patron", args=[chan.pk])).content.decode()
    assert "Chan Tai Man" in html and "A123456(3)" not in html and "1980-05-17" not in html
    assert not DocumentRead.objects.exists()


def test_a_supervisor_of_another_table_does_not_see_the_player(client, seated):
    _staff, _t1, chan, _wong = seated
    elsewhere = user("supervisor_t3", "supervisor")
    table("T3", staff=[elsewhere])
    client.force_login(elsewhere)
    assert "Chan Tai Man" not in client.get(reverse("pit:patrons"), {"q": "chan"}).content.decode()
    assert client.get(reverse("pit:patron", args=[chan.pk])).status_code == 404
    assert client.get(reverse("pit:patron_identify", args=[chan.pk])).status_code == 403


@pytest.mark.parametrize("name", ["pit:patrons", "pit:patron", "pit:patron_identify"])
def test_a_dealer_has_no_players_pages(client, seated, name):
    staff, _t1, chan, _wong = seated
    client.force_login(staff["dealer"])
    url = reverse(name) if name == "pit:patrons" else reverse(name, args=[chan.pk])
    assert client.get(url).status_code == 403


def test_the_menu_links_the_players_for_those_who_may_see_them(client, seated):
    staff, _t1, _chan, _wong = seated
    for who, shown in (("supervisor", True), ("inspector", True), ("dealer", False)):
        client.force_login(staff[who])
        assert (f'href="{reverse("pit:patrons")}"' in client.get(reverse("pit:tables")).content.decode()) is shown


def test_the_supervisor_identifies_a_player_at_his_table(client, seated):
    staff, t1, _chan, wong = seated
    client.force_login(staff["supervisor"])
    url = reverse("pit:patron_identify", args=[wong.pk])
    assert client.get(url).status_code == 200
    back = reverse("pit:money", args=[t1.pk])
    response = client.post(f"{url}?next={back}", GOOD)
    assert response.status_code == 302 and response["Location"] == back
    wong.refresh_from_db()
    assert wong.identified and wong.document_number == "1234567(8)" and wong.changed_by == staff["supervisor"]


def test_the_identification_form_shows_the_document_on_record_logged(client, seated):
    staff, _t1, chan, _wong = seated
    client.force_login(staff["supervisor"])
    html = client.get(reverse("pit:patron_identify", args=[chan.pk])).content.decode()
    assert 'value="A123456(3)"' in html
    read = DocumentRead.objects.get()
    assert (read.read_by, read.purpose) == (staff["supervisor"], "pit:patron_identify")


def test_a_next_to_another_site_is_not_followed(client, seated):
    staff, _t1, _chan, wong = seated
    client.force_login(staff["supervisor"])
    response = client.post(reverse("pit:patron_identify", args=[wong.pk]) + "?next=https://evil.example/",
                           GOOD)
    assert response["Location"] == reverse("pit:patron", args=[wong.pk])


@pytest.mark.parametrize(("language", "words"), [
    ("en", "A Hong Kong identity card number is one or two letters"),
    ("pt", "O número do bilhete de identidade de Hong Kong é uma ou duas letras"),
    ("zh-hant", "香港身份證號碼由一至兩個英文字母"),
])
def test_a_malformed_document_is_shown_beside_its_field_in_the_readers_language(client, seated, language, words):
    """Needs the compiled catalogues for Portuguese and Chinese."""
    staff, _t1, _chan, wong = seated
    html = page(client, staff["supervisor"], language, reverse("pit:patron_identify", args=[wong.pk]),
                {**GOOD, "document_type": "hong_kong_id", "document_number": "123", "document_country": "HK"})
    assert words in html
    assert 'data-field="document_number"' in html
    wong.refresh_from_db()
    assert not wong.identified and wong.changes.count() == 1


def test_an_under_age_player_is_refused(client, seated):
    staff, _t1, _chan, wong = seated
    client.force_login(staff["supervisor"])
    response = client.post(reverse("pit:patron_identify", args=[wong.pk]), {**GOOD, "date_of_birth": "2010-01-01"})
    assert response.status_code == 400
    assert "Law n.º 10/2012" in response.content.decode()


@pytest.mark.parametrize(("who", "label"), [
    ("dealer", "C*** T** M** · player {id}"), ("supervisor", "Chan Tai Man · player {id}"),
    ("inspector", "Chan Tai Man · player {id}"),
])
def test_the_picker_masks_names_per_role(client, seated, who, label):
    staff, t1, chan, _wong = seated
    client.force_login(staff[who])
    found = client.get(reverse("pit:patron_find"), {"q": "chan tai man", "table": t1.pk}).json()
    assert found == [{"id": chan.pk, "label": label.format(id=chan.pk)}]


def test_a_dealer_finds_a_player_by_his_whole_name_only(client, seated):
    """Masked answers to "c", "ch", "cha"... would spell a name out: a dealer gets none of them."""
    staff, t1, chan, _wong = seated
    client.force_login(staff["dealer"])
    assert client.get(reverse("pit:patron_find"), {"q": "chan", "table": t1.pk}).json() == []
    assert [hit["id"] for hit in client.get(reverse("pit:patron_find"), {"q": "CHAN  tai man",
                                                                           "table": t1.pk}).json()] == [chan.pk]
    client.force_login(staff["supervisor"])
    assert [hit["id"] for hit in client.get(reverse("pit:patron_find"), {"q": "chan", "table": t1.pk}).json()] == [
        chan.pk]


def test_the_picker_gives_nothing_at_a_table_one_does_not_see(client, seated):
    staff, t1, _chan, _wong = seated
    client.force_login(staff["other_dealer"])
    assert client.get(reverse("pit:patron_find"), {"q": "chan", "table": t1.pk}).status_code == 404


def test_the_picker_gives_at_most_twenty(client, people):
    staff, t1, _t2 = people
    lisboa = Casino.objects.get(name="Casino Lisboa")
    for number in range(25):
        Patron.objects.create(casino=lisboa, name=f"Ho {number}", created_at=NOON, created_by=staff["supervisor"],
                              changed_at=NOON, changed_by=staff["supervisor"])
    client.force_login(staff["supervisor"])
    assert len(client.get(reverse("pit:patron_find"), {"q": "ho", "table": t1.pk}).json()) == 20


def test_the_players_page_lists_his_movements_by_day_with_running_totals(client, seated):
    staff, _t1, chan, _wong = seated
    client.force_login(staff["inspector"])
    html = client.get(reverse("pit:patron", args=[chan.pk])).content.decode()
    # The seating buy-in of 5000, then 800: running total 5800 on gaming day 2026-11-21.
    assert "2026-11-21" in html
    assert '<td class="num">800</td><td class="num">5800</td>' in html
