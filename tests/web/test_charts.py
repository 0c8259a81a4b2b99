"""Server-drawn SVG charts: a title, every name escaped, no script or inline style, any size of data."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from referee import charts

NS = "{http://www.w3.org/2000/svg}"


def _parse(svg) -> ET.Element:
    return ET.fromstring(str(svg))


def test_line_chart_has_a_title_and_a_point_per_value():
    svg = charts.line_chart("Running totals", ["1", "2", "3"],
                            [charts.Series("Ana", [7, 19, 24]), charts.Series("Ben", [23, 27, 27])], chart_id="rt")
    root = _parse(svg)
    assert root.get("role") == "img" and root.get("aria-labelledby") == "rt-title"
    assert root.find(f"{NS}title").text == "Running totals"
    assert len(root.findall(f"{NS}circle")) == 6 and len(root.findall(f"{NS}polyline")) == 2
    assert [t.text for t in root.iter(f"{NS}title")][1] == "Ana, 1: 7"


def test_hostile_names_are_escaped_and_nothing_runs():
    name = '<script>alert(1)</script>" onload="x'
    svg = str(charts.line_chart(name, [name], [charts.Series(name, [1])]))
    assert "<script" not in svg and 'onload="x' not in svg and "style=" not in svg
    _parse(svg)  # still well-formed
    bars = str(charts.bar_chart("t", [name, "b"], [3, -2], name=name))
    assert "<script" not in bars
    _parse(bars)


def test_empty_flat_and_long_series_still_draw():
    assert _parse(charts.line_chart("empty", [], []))
    assert _parse(charts.bar_chart("zeros", ["a", "b"], [0, 0]))
    long = charts.line_chart("long", [str(i) for i in range(5000)], [charts.Series("x", list(range(5000)))] * 30)
    root = _parse(long)
    assert len(root.findall(f"{NS}polyline")) == charts.MAX_SERIES
    assert len(root.findall(f"{NS}circle")) == 0  # a long line is drawn without a dot per step
