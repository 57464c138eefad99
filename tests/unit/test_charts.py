"""The one chart module: well-formed SVG, named for screen readers, every case drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from scorekeeper import charts
from scorekeeper.games.base import MINUS

SVG = "{http://www.w3.org/2000/svg}"


def chart(*series: charts.Series, **fields: object) -> charts.LineChart:
    return charts.LineChart(
        ident="test-chart",
        title="Score after each round",
        x_label="Round",
        y_label="Score",
        series=series,
        **fields,  # type: ignore[arg-type]
    )


def parsed(markup: str) -> ET.Element:
    # The figure is HTML around inline SVG: giving the SVG its namespace makes it XML.
    return ET.fromstring(str(markup).replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" '))


def test_a_chart_is_well_formed_and_named_by_its_title_and_description() -> None:
    figure = parsed(
        charts.render(
            chart(
                charts.Series("Ann", ((0, 0), (1, 300), (2, 650))),
                charts.Series("Bo", ((0, 0), (1, 500), (2, 400))),
            )
        )
    )
    svg = figure.find(f"{SVG}svg")
    assert svg is not None
    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == "test-chart-title test-chart-desc"
    assert svg.findtext(f"{SVG}title") == "Score after each round"
    assert svg.findtext(f"{SVG}desc") == (
        "Score by round, 0 to 2. Ann: 650 at the end (lowest 0, highest 650). "
        "Bo: 400 at the end (lowest 0, highest 500)."
    )
    legend = [li.itertext() for li in figure.iter("li")]
    assert ["".join(text) for text in legend] == ["Ann", "Bo"]
    # Each series has its own style class: colour, dash pattern and marker shape.
    groups = [g.get("class") for g in svg.iter(f"{SVG}g") if "chart-series" in g.get("class", "")]
    assert groups == ["chart-series chart-s0", "chart-series chart-s1"]


def test_negative_scores_put_zero_inside_the_axis() -> None:
    markup = charts.render(
        chart(
            charts.Series("Ann", ((0, 20), (1, -7), (2, -12))),
            charts.Series("Bo", ((0, 20), (1, 33))),
        )
    )
    svg = parsed(markup).find(f"{SVG}svg")
    assert svg is not None
    labels = [text.text for text in svg.iter(f"{SVG}text")]
    assert labels == [f"{MINUS}20", "0", "20", "40", "0", "1", "2", "Round", "Score"]
    assert 'class="chart-zero"' in markup
    assert f"Ann: {MINUS}12 at the end (lowest {MINUS}12, highest 20)." in (
        svg.findtext(f"{SVG}desc") or ""
    )


def test_a_single_point_is_drawn_as_a_marker_in_the_middle_of_the_axis() -> None:
    markup = charts.render(chart(charts.Series("Solo", ((1, 5),))))
    svg = parsed(markup).find(f"{SVG}svg")
    assert svg is not None
    assert svg.findtext(f"{SVG}desc") == "Score by round, 1 to 1. Solo: 5 at the end."
    x_labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("text-anchor") == "middle"]
    assert x_labels[:3] == ["0", "1", "2"]
    marks = [p for p in svg.iter(f"{SVG}path") if p.get("class") == "chart-mark"]
    assert len(marks) == 1 and marks[0].get("d", "").startswith("M")


def test_no_point_draws_nothing() -> None:
    assert charts.render(chart()) == ""
    assert charts.render(chart(charts.Series("Ann", ()))) == ""


def test_names_are_escaped_in_the_description_and_the_legend() -> None:
    name = '<script>alert("x")</script> & Bo'
    markup = charts.render(chart(charts.Series(name, ((0, 0), (1, 1)))))
    assert "<script>" not in markup
    figure = parsed(markup)
    assert "".join(next(figure.iter("li")).itertext()) == name
    assert name in (figure.findtext(f"{SVG}svg/{SVG}desc") or "")


def test_eight_series_have_eight_styles_and_every_name_in_the_legend() -> None:
    series = [charts.Series(f"P{n}", ((0, 0), (1, n * 10))) for n in range(8)]
    markup = charts.render(chart(*series))
    assert all(f"chart-series chart-s{n}" in markup for n in range(8))
    assert ["".join(li.itertext()) for li in parsed(markup).iter("li")] == [
        f"P{n}" for n in range(8)
    ]


def test_a_long_game_is_thinned_to_a_small_chart() -> None:
    # A 700-turn Yardkle game between 8 players: 88 rounds each, up to 10,000 points.
    series = [
        charts.Series(f"Player {n}", tuple((r, r * 113 + n) for r in range(89))) for n in range(8)
    ]
    markup = charts.render(chart(*series))
    assert len(markup) < 12_000
    line = parsed(markup).find(f"{SVG}svg/{SVG}g[@class='chart-series chart-s0']/{SVG}path")
    assert line is not None
    assert line.get("d", "").count("L") == charts.MAX_POINTS - 1


def test_thinning_keeps_the_first_and_last_points() -> None:
    points = [(float(n), float(n)) for n in range(200)]
    kept = charts.thinned(points, most=5)
    assert kept == [(0, 0), (50, 50), (100, 100), (149, 149), (199, 199)]
    assert charts.thinned(points[:3], most=5) == points[:3]


def test_ticks_are_round_numbers_covering_the_range() -> None:
    assert charts.nice_ticks(0, 10_150) == [0, 5000, 10_000, 15_000]
    assert charts.nice_ticks(-12, 60) == [-20, 0, 20, 40, 60]
    assert charts.nice_ticks(0, 0) == [0, 1]
    assert charts.nice_ticks(0, 3) == [0, 1, 2, 3]


def test_a_count_is_drawn_in_steps_that_hold_until_the_next_point() -> None:
    markup = charts.render(chart(charts.Series("Ann", ((0, 0), (2, 1), (4, 3))), steps=True))
    line = parsed(markup).find(f"{SVG}svg/{SVG}g[@class='chart-series chart-s0']/{SVG}path")
    assert line is not None
    # Rounds 0 to 4 across x 48..330; wins 0 to 3 up y 178..10.
    assert line.get("d") == "M48.0 178.0H189.0V122.0H330.0V10.0"


def test_an_x_label_that_would_touch_the_one_before_is_left_out() -> None:
    long_days = charts.Series("Ann", ((0, 1), (9, 2), (10, 3)))
    markup = charts.render(chart(long_days, x_format=lambda x: f"day number {x:.0f}"))
    svg = parsed(markup).find(f"{SVG}svg")
    assert svg is not None
    labels = [t.text for t in svg.iter(f"{SVG}text") if (t.text or "").startswith("day")]
    # Ticks 0, 2, 4, 6, 8 and 10: labels 13 characters wide fit every other tick.
    assert labels == ["day number 0", "day number 4", "day number 8"]
