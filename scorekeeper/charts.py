"""Line charts drawn on the server as inline SVG: every chart of the app comes from here.

A chart works without JavaScript and is small: a long series (a 700-turn Yardkle game)
is thinned to at most ``MAX_POINTS`` points, first and last kept, since the exact
figures are in a table beside it. Colours come from CSS classes (``chart-s0`` ..
``chart-s7`` in static/app.css, light and dark), never from style attributes (the
Content-Security-Policy forbids them). Series differ by colour, dash pattern and marker
shape, and a legend names them. For screen readers the SVG is one image named by its
``<title>`` whose ``<desc>`` says every series' last, lowest and highest value.
Every text is escaped. The words (a title, an axis label, the summary) are read in the
language of the ``Reader`` given (English by default): a label may be a ``Text``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from babel import Locale
from markupsafe import Markup, escape

from scorekeeper.games.base import MINUS
from scorekeeper.games.words import ENGLISH, THEN, Reader, Signed, Text, phrase

# The drawing's own units: about one CSS pixel each on a 360 px phone.
WIDTH = 340
HEIGHT = 220
LEFT = 48  # room for the value labels
RIGHT = 10
TOP = 10
BOTTOM = 42  # room for the tick labels and the axis label
MAX_POINTS = 60
# Markers on at most this many points of a series (and on its last one).
MAX_MARKERS = 8
MARKER_SIZE = 3.5
# About how wide a character of the 11 px labels is, in the drawing's units.
CHAR_WIDTH = 6.5
STYLES = 8  # chart-s0 .. chart-s7: colour, dash pattern and marker shape

# The summary a screen reader says: the axes, then a sentence for each series.
AXES = phrase("chart.axes", "{values} by {steps}, {first} to {last}.")
SERIES_END = phrase("chart.series-end", "{name}: {last} at the end.")
SERIES_RANGE = phrase(
    "chart.series-range", "{name}: {last} at the end (lowest {lowest}, highest {highest})."
)


def format_number(value: float) -> str:
    """An axis or summary number as the app writes scores: 1,500, and a minus sign before -12."""
    number = round(value)
    text = f"{abs(number):,}"
    return f"{MINUS}{text}" if number < 0 else text


@dataclass(frozen=True)
class Series:
    """One line: its name and its (x, y) points in the order drawn."""

    name: str
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class LineChart:
    """What to draw; ``ident`` makes the ids of the title and description unique on a page."""

    ident: str
    title: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    x_format: Callable[[float], str] = format_number
    # The x values in another language than English (dates: "3 nov. 2026"); None: the
    # numbers as that language groups them, or x_format's words when it is not numbers.
    x_format_in: Callable[[float, Locale], str] | None = None
    # At most this many ticks on the x axis: fewer for wide labels (dates).
    x_ticks: int = 6
    # A count that changes at a point and holds until the next (wins so far) is drawn in
    # steps; a score is drawn straight from point to point.
    steps: bool = False


def nice_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Whole-number ticks 1, 2 or 5 times a power of ten apart, covering low..high."""
    if high <= low:
        high = low + 1
    rough = (high - low) / max(most - 1, 1)
    power = 10 ** math.floor(math.log10(rough)) if rough >= 1 else 1
    step = next(power * f for f in (1, 2, 5, 10) if power * f >= rough)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return [float(first + index * step) for index in range(round((last - first) / step) + 1)]


def ticks_within(low: float, high: float, most: int) -> list[float]:
    """Nice ticks inside low..high, at least two: the x axis spans the data exactly (no
    empty rounds after the last one played)."""
    for count in range(most, most + 8):
        inside = [tick for tick in nice_ticks(low, high, count) if low <= tick <= high]
        if len(inside) >= 2:
            return inside
    return [low, high]


def thinned(
    points: Sequence[tuple[float, float]], most: int = MAX_POINTS
) -> list[tuple[float, float]]:
    """At most ``most`` points evenly picked, the first and the last always kept."""
    if len(points) <= most:
        return list(points)
    picks = {round(index * (len(points) - 1) / (most - 1)) for index in range(most)}
    return [points[index] for index in sorted(picks)]


def _marker(style: int, x: float, y: float) -> str:
    """Path data of the series' marker shape centred on (x, y)."""
    r = MARKER_SIZE
    shape = style % STYLES
    if shape == 0:  # circle
        return f"M{x - r:.1f} {y:.1f}a{r} {r} 0 1 0 {2 * r} 0a{r} {r} 0 1 0 {-2 * r} 0Z"
    if shape == 1:  # square
        return f"M{x - r:.1f} {y - r:.1f}h{2 * r}v{2 * r}h{-2 * r}Z"
    if shape == 2:  # triangle up
        return f"M{x:.1f} {y - r - 1:.1f}l{r + 1} {2 * r + 1}h{-2 * r - 2}Z"
    if shape == 3:  # diamond
        return f"M{x:.1f} {y - r - 1:.1f}l{r + 1} {r + 1}l{-r - 1} {r + 1}l{-r - 1} {-r - 1}Z"
    if shape == 4:  # triangle down
        return f"M{x:.1f} {y + r + 1:.1f}l{r + 1} {-2 * r - 1}h{-2 * r - 2}Z"
    if shape == 5:  # cross
        return f"M{x - r:.1f} {y - r:.1f}l{2 * r} {2 * r}m0 {-2 * r}l{-2 * r} {2 * r}"
    if shape == 6:  # plus
        return f"M{x - r - 1:.1f} {y:.1f}h{2 * r + 2}m{-r - 1} {-r - 1}v{2 * r + 2}"
    # bar
    return f"M{x - r - 1:.1f} {y - 1.5:.1f}h{2 * r + 2}v3h{-2 * r - 2}Z"


def _marked(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    step = max(1, math.ceil(len(points) / MAX_MARKERS))
    picked = list(points[::step])
    if picked[-1] != points[-1]:
        picked.append(points[-1])
    return picked


def _words(reader: Reader, text: str) -> str:
    return reader.read(text) if isinstance(text, Text) else text


def _number(reader: Reader, value: float) -> str:
    """A value as ``format_number`` writes it, in the reader's language."""
    return format_number(value) if reader is ENGLISH else str(reader.value(Signed(round(value))))


def _x_text(chart: LineChart, reader: Reader) -> Callable[[float], str]:
    """How the chart writes an x value for the reader."""
    if reader is ENGLISH:
        return chart.x_format
    x_format_in = chart.x_format_in
    if x_format_in is not None:
        return lambda x: x_format_in(x, reader.locale)
    if chart.x_format is format_number:
        return lambda x: _number(reader, x)
    return chart.x_format


def summary(chart: LineChart, reader: Reader = ENGLISH) -> str:
    """The chart in words: the axes' ranges and each series' last, lowest and highest value."""
    xs = [x for series in chart.series for x, _ in series.points]
    x_text = _x_text(chart, reader)
    axes = reader.read(
        AXES(
            values=_words(reader, chart.y_label),
            steps=_words(reader, chart.x_label).lower(),
            first=x_text(min(xs)),
            last=x_text(max(xs)),
        )
    )
    # A sentence ending on an abbreviation ("4 déc.") takes no second full stop.
    said: str = axes[:-1] if axes.endswith("..") else axes
    for series in chart.series:
        if not series.points:
            continue
        ys = [y for _, y in series.points]
        last = _number(reader, ys[-1])
        if min(ys) != max(ys):
            lowest, highest = _number(reader, min(ys)), _number(reader, max(ys))
            line = SERIES_RANGE(name=series.name, last=last, lowest=lowest, highest=highest)
        else:
            line = SERIES_END(name=series.name, last=last)
        said = reader.read(THEN(first=said, second=line))
    return said


def render(chart: LineChart, reader: Reader = ENGLISH) -> Markup:
    """The chart as a figure: the SVG image and its legend, its words in ``reader``'s
    language. Nothing when there is no point."""
    if not any(series.points for series in chart.series):
        return Markup("")
    x_text = _x_text(chart, reader)
    xs = [x for series in chart.series for x, _ in series.points]
    ys = [y for series in chart.series for _, y in series.points]
    # A single round or day sits in the middle of the axis.
    x_low, x_high = (min(xs), max(xs)) if min(xs) < max(xs) else (min(xs) - 1, max(xs) + 1)
    x_ticks = ticks_within(x_low, x_high, chart.x_ticks)
    # Scores are read from zero: the axis always shows it (and below it, chips owed).
    y_ticks = nice_ticks(min(0.0, *ys), max(0.0, *ys))
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def at_x(x: float) -> float:
        return LEFT + (x - x_low) / (x_high - x_low) * plot_w

    def at_y(y: float) -> float:
        return TOP + (y_ticks[-1] - y) / (y_ticks[-1] - y_ticks[0]) * plot_h

    parts = [
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart.ident}-title {chart.ident}-desc">',
        f'<title id="{chart.ident}-title">{escape(_words(reader, chart.title))}</title>',
        f'<desc id="{chart.ident}-desc">{escape(summary(chart, reader))}</desc>',
        '<g class="chart-axes">',
    ]
    for tick in y_ticks:
        y = at_y(tick)
        kind = "chart-zero" if tick == 0 else "chart-grid"
        parts.append(f'<path class="{kind}" d="M{LEFT} {y:.1f}H{WIDTH - RIGHT}"/>')
        label = escape(_number(reader, tick))
        parts.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    labelled_to = 0.0  # where the last x label drawn ends
    for tick in x_ticks:
        x = at_x(tick)
        parts.append(f'<path class="chart-grid" d="M{x:.1f} {TOP}V{TOP + plot_h}"/>')
        label = escape(x_text(tick))
        width = len(label) * CHAR_WIDTH
        # A label that would pass the drawing's right edge ends at its tick instead; one
        # that would touch the label before it is left out (its grid line stays).
        anchor, start = ("end", x - width) if x + width / 2 > WIDTH else ("middle", x - width / 2)
        if start < labelled_to + CHAR_WIDTH:
            continue
        labelled_to = start + width
        parts.append(
            f'<text x="{x:.1f}" y="{TOP + plot_h + 15}" text-anchor="{anchor}">{label}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 4}" text-anchor="middle">'
        f"{escape(_words(reader, chart.x_label))}</text>"
    )
    parts.append(
        f'<text transform="rotate(-90)" x="{-(TOP + plot_h / 2):.0f}" y="12" '
        f'text-anchor="middle">{escape(_words(reader, chart.y_label))}</text>'
    )
    parts.append("</g>")
    for style, series in enumerate(chart.series):
        points = thinned(series.points)
        if not points:
            continue
        placed = [(at_x(x), at_y(y)) for x, y in points]
        line = f"M{placed[0][0]:.1f} {placed[0][1]:.1f}" + "".join(
            f"H{x:.1f}V{y:.1f}" if chart.steps else f"L{x:.1f} {y:.1f}" for x, y in placed[1:]
        )
        marks = "".join(_marker(style, x, y) for x, y in _marked(placed))
        parts.append(
            f'<g class="chart-series chart-s{style % STYLES}">'
            f'<path class="chart-line" d="{line}"/><path class="chart-mark" d="{marks}"/></g>'
        )
    parts.append("</svg>")
    legend = "".join(
        f'<li><svg class="chart-key chart-s{style % STYLES}" viewBox="0 0 32 12" '
        'aria-hidden="true"><path class="chart-line" d="M1 6H31"/>'
        f'<path class="chart-mark" d="{_marker(style, 16, 6)}"/></svg>{escape(series.name)}</li>'
        for style, series in enumerate(chart.series)
    )
    return Markup(
        f'<figure class="chart">{"".join(parts)}<ul class="chart-legend">{legend}</ul></figure>'
    )
