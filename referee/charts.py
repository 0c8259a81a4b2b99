"""Charts drawn on the server as SVG: no script, no CDN, no inline style (the page's CSP holds).

Each chart has a ``<title>`` (and ``role="img"``, named by it) and is drawn from the same figures a
table beside it shows. ``line_chart`` draws series over labelled steps (running totals round by round,
wins across nights); ``bar_chart`` one bar per label. Every name and label is escaped.
"""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

# Colours told apart by most colour-blind eyes (Okabe & Ito), then a few more.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#000000", "#F0E442",
           "#7F7F7F", "#8C564B")
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 10, 10, 40
MAX_SERIES = 10
MAX_POINTS = 200
MAX_MARKED = 60  # points along a line marked with a dot (and its figure) up to this many steps


@dataclass(frozen=True)
class Series:
    name: str
    values: list[float | int]


def _ticks(low: float, high: float, count: int = 4) -> list[float]:
    if high <= low:
        return [low]
    raw = (high - low) / count
    step = 1.0
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        step = nice
        if nice >= raw:
            break
    first = (low // step) * step
    out, at = [], first
    while at <= high + 1e-9:
        if at >= low - 1e-9:
            out.append(at)
        at += step
    return out


def _num(value: float) -> str:
    return f"{value:g}"


def _frame(title: str, body: list[str], legend: list[tuple[str, str]], chart_id: str) -> Markup:
    rows = (len(legend) + 2) // 3
    height = HEIGHT + rows * 16
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
             f'role="img" aria-labelledby="{escape(chart_id)}-title" id="{escape(chart_id)}" direction="ltr">',
             f'<title id="{escape(chart_id)}-title">{escape(title)}</title>',
             f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>', *body]
    for i, (name, colour) in enumerate(legend):
        x, y = 8 + (i % 3) * 118, HEIGHT + (i // 3) * 16 - 4
        parts.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{x + 14}" y="{y}" font-size="11" fill="#222">{escape(name[:16])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _axes(labels: list[str], low: float, high: float) -> tuple[list[str], callable, callable]:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = (high - low) or 1

    def y(v: float) -> float:
        return TOP + plot_h - (v - low) / span * plot_h

    n = max(len(labels), 1)

    def x(i: int) -> float:
        return LEFT + (plot_w * (i + 0.5) / n)

    body = [f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" stroke="#888"/>']
    for t in _ticks(low, high):
        body.append(f'<line x1="{LEFT}" y1="{y(t):.1f}" x2="{WIDTH - RIGHT}" y2="{y(t):.1f}" stroke="#e3e3e3"/>'
                    f'<text x="{LEFT - 4}" y="{y(t) + 4:.1f}" font-size="10" text-anchor="end" fill="#444">{_num(t)}</text>')
    every = max(1, (n + 7) // 8)  # at most 8 labels along the bottom
    for i, label in enumerate(labels):
        if i % every == 0 or i == n - 1:
            body.append(f'<text x="{x(i):.1f}" y="{TOP + plot_h + 14}" font-size="10" text-anchor="middle" '
                        f'fill="#444">{escape(str(label)[:10])}</text>')
    return body, x, y


def line_chart(title: str, labels: list[str], series: list[Series], chart_id: str = "chart") -> Markup:
    """One line per series over ``labels`` (the same number of values each)."""
    labels = labels[-MAX_POINTS:]
    series = [Series(s.name, list(s.values)[-MAX_POINTS:]) for s in series[:MAX_SERIES]]
    values = [v for s in series for v in s.values if v is not None]
    low, high = min([0, *values]), max([1, *values])
    body, x, y = _axes(labels, low, high)
    legend = []
    for k, s in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        points = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.values) if v is not None]
        if len(points) > 1:
            body.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for i, v in enumerate(s.values if len(labels) <= MAX_MARKED else ()):  # long series: the line alone
            if v is not None:
                body.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}">'
                            f'<title>{escape(s.name)}, {escape(str(labels[i]) if i < len(labels) else "")}: '
                            f'{_num(v)}</title></circle>')
        legend.append((s.name, colour))
    return _frame(title, body, legend, chart_id)


def bar_chart(title: str, labels: list[str], values: list[float | int], chart_id: str = "chart",
              name: str = "") -> Markup:
    """One bar per label."""
    labels, values = labels[-MAX_POINTS:], list(values)[-MAX_POINTS:]
    low, high = min([0, *values]), max([1, *values])
    body, x, y = _axes(labels, low, high)
    n = max(len(labels), 1)
    width = max(2.0, (WIDTH - LEFT - RIGHT) / n * 0.7)
    for i, v in enumerate(values):
        top, base = y(max(v, 0)), y(min(v, 0))
        body.append(f'<rect x="{x(i) - width / 2:.1f}" y="{top:.1f}" width="{width:.1f}" height="{max(base - top, 0.5):.1f}"'
                    f' fill="{PALETTE[0]}"><title>{escape(str(labels[i]))}: {_num(v)}</title></rect>')
    return _frame(title, body, [(name, PALETTE[0])] if name else [], chart_id)
