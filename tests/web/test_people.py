"""Lasting profiles and groups: names as the table keeps them, renames, merges recorded as events and
undone by another event."""
from __future__ import annotations

import sqlite3

import pytest

from referee import people
from tests.web.nights_helpers import TIED_ROUND, play


def test_a_profile_is_found_by_any_spelling_the_table_would_take_for_it(database):
    ana = people.create_profile(database, "  Ana ")
    assert ana.name == "Ana"
    assert people.find_profile(database, "ANA").id == ana.id
    with pytest.raises(people.PeopleError) as err:
        people.create_profile(database, "ana")
    assert err.value.field == "name"


@pytest.mark.parametrize("name", ["", "   ", "\u200b", "a" * 41, "x\u0000y", 42, None, ["Ana"]])
def test_hostile_names_are_refused_with_the_field(database, name):
    with pytest.raises(people.PeopleError) as err:
        people.create_profile(database, name)
    assert err.value.field == "name"


def test_rename_is_recorded_and_refuses_a_name_in_use(database):
    ana = people.create_profile(database, "Ana")
    people.create_profile(database, "Ben")
    assert people.rename(database, ana.id, "Anna").name == "Anna"
    with pytest.raises(people.PeopleError):
        people.rename(database, ana.id, "ben")
    kinds = [e["kind"] for e in people.profile_events(database, ana.id)]
    assert kinds == ["create", "rename"]


def test_a_rename_is_undone_by_an_event_of_its_own(database):
    ana = people.create_profile(database, "Ana")
    people.rename(database, ana.id, "Anna")
    people.rename(database, ana.id, "Annie")
    assert people.undo_rename(database, ana.id).name == "Anna"
    assert people.find_profile(database, "anna").id == ana.id and people.find_profile(database, "Annie") is None
    assert people.undo_rename(database, ana.id).name == "Ana"  # the renames undone last first
    with pytest.raises(people.PeopleError) as err:
        people.undo_rename(database, ana.id)  # back at the name it was made with
    assert err.value.field == "name"
    events = people.profile_events(database, ana.id)
    assert [e["kind"] for e in events] == ["create", "rename", "rename", "unrename", "unrename"]
    assert [e["undoes"] for e in events[3:]] == [events[2]["id"], events[1]["id"]]  # each names the rename it undoes
    people.rename(database, ana.id, "Ann")  # a rename after the undos: undone, the name before it comes back
    assert people.undo_rename(database, ana.id).name == "Ana"


def test_undoing_a_rename_refuses_a_name_another_player_took_meanwhile(database):
    ana = people.create_profile(database, "Ana")
    people.rename(database, ana.id, "Anna")
    other = people.create_profile(database, "ana")  # the old name is free: someone else takes it
    with pytest.raises(people.PeopleError) as err:
        people.undo_rename(database, ana.id)
    assert err.value.field == "name" and "rename one of them first" in err.value.message
    assert people.get_profile(database, ana.id).name == "Anna" and people.get_profile(database, other.id).name == "ana"
    assert [e["kind"] for e in people.profile_events(database, ana.id)] == ["create", "rename"]  # nothing written


def test_merge_and_undo_are_events_and_the_record_is_never_edited(database):
    a = people.create_profile(database, "Robert")
    b = people.create_profile(database, "Bob")
    people.merge(database, b.id, a.id)
    assert people.get_profile(database, b.id).canonical_id == a.id
    assert [p.name for p in people.profiles(database)] == ["Robert"]
    assert people.find_profile(database, "Bob") is None  # no longer a separate player
    people.unmerge(database, b.id)
    assert people.get_profile(database, b.id).canonical_id == b.id
    kinds = [e["kind"] for e in people.profile_events(database, b.id)]
    assert kinds == ["create", "merge", "unmerge"]
    into = [(e["kind"], e["profile_name"], e["other_name"]) for e in people.profile_events(database, a.id)]
    assert into == [("create", "Robert", None), ("merge", "Bob", "Robert"), ("unmerge", "Bob", "Robert")]
    with pytest.raises(sqlite3.IntegrityError):
        database.execute("UPDATE profile_events SET kind = 'create'")
    with pytest.raises(people.PeopleError):
        people.unmerge(database, b.id)


def test_merges_chain_and_a_cycle_is_refused(database):
    a, b, c = (people.create_profile(database, n) for n in ("Ann", "Annie", "Anne"))
    people.merge(database, c.id, b.id)
    people.merge(database, b.id, a.id)
    assert people.get_profile(database, c.id).canonical_id == a.id
    with pytest.raises(people.PeopleError):
        people.merge(database, a.id, c.id)  # already the same person


def test_two_who_sat_at_one_table_are_never_merged(database):
    play(database, TIED_ROUND)
    ana, ben = people.find_profile(database, "Ana"), people.find_profile(database, "Ben")
    with pytest.raises(people.PeopleError) as err:
        people.merge(database, ana.id, ben.id)
    assert "same table" in err.value.message


def test_a_new_table_with_a_merged_name_counts_for_the_person(database):
    a = people.create_profile(database, "Robert")
    b = people.create_profile(database, "Bob")
    people.merge(database, b.id, a.id)
    play(database, {**TIED_ROUND, "players": ["Bob", "Cy"], "entries": []})
    seat = database.execute("SELECT profile_id FROM match_seats WHERE seat = 0").fetchone()[0]
    assert people.get_profile(database, seat).canonical_id == a.id


def test_groups_are_found_by_name(database):
    g = people.find_or_create_group(database, "Friday club")
    assert people.find_or_create_group(database, "friday CLUB") == g
    assert [x.name for x in people.groups(database)] == ["Friday club"]


def test_a_name_a_player_had_before_a_rename_still_finds_her_at_a_new_table(database):
    """Ana renamed "Ana Silva": a table typed with "Ana" counts for her, rather than starting a new player
    (whose name would then stop her rename being undone); a new player may still be made by that name."""
    from referee.store import write_transaction

    ana = people.create_profile(database, "Ana")
    people.rename(database, ana.id, "Ana Silva")
    with write_transaction(database) as conn:
        assert people.profile_ids_for(conn, ["ana", "Ben"])[0] == ana.id
    assert people.undo_rename(database, ana.id).name == "Ana"
    people.rename(database, ana.id, "Ana Silva")
    other = people.create_profile(database, "Ana")  # made on purpose: the name is free
    with write_transaction(database) as conn:
        assert people.profile_ids_for(conn, ["Ana"]) == [other.id]
