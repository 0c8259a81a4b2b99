"""The JSON form derived from a frozen dataclass's field types."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

import pytest

from referee.games.jsonform import Form


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int

    def to_list(self) -> list[int]:
        return [self.x, self.y]

    @classmethod
    def from_list(cls, data: list[int]) -> Point:
        return cls(*data)


@dataclass(frozen=True, slots=True)
class Inner:
    name: str
    seen: frozenset[int] = frozenset()


def _pairs(data: list[Any]) -> tuple[tuple[int, str], ...]:
    return tuple((p[0], p[1] if len(p) > 1 else "?") for p in data)


@dataclass(frozen=True, slots=True)
class Outer:
    label: str | None
    counts: tuple[int, ...]
    points: tuple[Point, ...]
    grid: tuple[tuple[Point, ...], ...]
    record: tuple[int, str, tuple[int, ...]]
    by_seat: Mapping[int, tuple[str, ...]]
    options: Mapping[str, Any]
    inner: Inner | None
    inners: tuple[Inner, ...]
    pairs: tuple[tuple[int, str], ...] = field(default=(), metadata={"read": _pairs})
    added_later: int = 7


FORM = Form({Point: (Point.to_list, Point.from_list)})

OUTER = Outer(label=None, counts=(3, 1), points=(Point(1, 2),), grid=((Point(0, 0), Point(1, 1)), ()),
              record=(4, "a", (5, 6)), by_seat=MappingProxyType({0: ("x",), 2: ()}),
              options=MappingProxyType({"k": [1, {"z": None}]}), inner=Inner("in", frozenset({3, 1})),
              inners=(Inner("a"),), pairs=((1, "one"),), added_later=8)


def test_each_kind_of_field_is_written_as_json():
    assert FORM.to_dict(OUTER) == {
        "label": None, "counts": [3, 1], "points": [[1, 2]], "grid": [[[0, 0], [1, 1]], []],
        "record": [4, "a", [5, 6]], "by_seat": {"0": ["x"], "2": []}, "options": {"k": [1, {"z": None}]},
        "inner": {"name": "in", "seen": [1, 3]}, "inners": [{"name": "a", "seen": []}],
        "pairs": [[1, "one"]], "added_later": 8}


def test_and_read_back_equal_through_json_text():
    back = FORM.from_dict(Outer, json.loads(json.dumps(FORM.to_dict(OUTER))))
    assert back == OUTER
    assert isinstance(back.counts, tuple) and isinstance(back.inner.seen, frozenset)
    assert isinstance(back.by_seat, MappingProxyType) and back.by_seat[0] == ("x",)
    assert isinstance(back.grid[0], tuple) and back.record == (4, "a", (5, 6))


def test_a_missing_field_takes_its_default_and_a_field_reader_upgrades_old_values():
    data = FORM.to_dict(OUTER)
    del data["added_later"]
    data["pairs"] = [[2]]
    back = FORM.from_dict(Outer, data)
    assert back.added_later == 7 and back.pairs == ((2, "?"),)


def test_a_missing_field_without_default_is_a_key_error():
    data = FORM.to_dict(OUTER)
    del data["counts"]
    with pytest.raises(KeyError, match="counts"):
        FORM.from_dict(Outer, data)


def test_a_type_with_no_json_form_is_refused_when_the_form_is_built():
    @dataclass(frozen=True)
    class Odd:
        when: complex

    with pytest.raises(TypeError, match="no JSON form"):
        FORM.fields(Odd)


def test_a_slotted_frozen_class_is_read_by_setting_its_slots_equal_to_its_init():
    """Read without its __init__ (each slot set straight), an object equals, hashes and prints as one
    built by __init__, and stays frozen."""
    data = json.loads(json.dumps(FORM.to_dict(OUTER)))
    back = FORM.from_dict(Outer, data)
    assert back == OUTER and hash(back.inners) == hash(OUTER.inners) and repr(back) == repr(OUTER)
    assert FORM._from_dict_with_defaults(Outer, data) == back  # the path that calls __init__
    with pytest.raises(AttributeError):
        back.label = "changed"  # type: ignore[misc]


def test_a_class_that_checks_itself_in_post_init_or_has_no_slots_is_read_through_its_init():
    seen = []

    @dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            seen.append(self.n)
            if self.n < 0:
                raise ValueError("negative")

    @dataclass(frozen=True)
    class Plain:
        n: int

    assert FORM.from_dict(Checked, {"n": 3}) == Checked(3) and seen == [3, 3]
    with pytest.raises(ValueError, match="negative"):
        FORM.from_dict(Checked, {"n": -1})
    assert FORM.from_dict(Plain, {"n": 4}) == Plain(4)
