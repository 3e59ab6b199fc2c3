"""The dashboard's colours and labels, the same on every page and chart.

The category colours are the Okabe–Ito palette, which people with the common colour vision deficiencies can
tell apart: NOT_CHECKABLE is its black (a grey background in the document view), far from NAME's blue in every
vision tests/test_dashboard_spans.py simulates, where its sky blue was close. The document view never relies on
colour alone: its labels carry the category's initials (see spans.py)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import altair as alt

CATEGORIES = ["NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER"]
CATEGORY_COLOURS = {
    "NAME": "#0072B2",
    "NUMBER": "#E69F00",
    "WORD": "#009E73",
    "CONTEXT": "#CC79A7",
    "NOT_CHECKABLE": "#000000",
    "OTHER": "#D55E00",
}
# In the document view's labels: NAME, NUMBER and NOT_CHECKABLE share their first letter.
CATEGORY_INITIALS = {"NAME": "Na", "NUMBER": "Nu", "WORD": "W", "CONTEXT": "C", "NOT_CHECKABLE": "NC", "OTHER": "O"}

# The outcome of a mistake when a submission is scored (queries/marts/mistake_outcomes.sql).
OUTCOMES = ["matched", "missed", "false_alarm"]
OUTCOME_LABELS = {"matched": "matched", "missed": "missed", "false_alarm": "false alarm"}
OUTCOME_COLOURS = {"matched": "#009E73", "missed": "#D55E00", "false_alarm": "#F0E442"}
OUTCOME_SYMBOLS = {"matched": "✓", "missed": "✗", "false_alarm": "!"}


# An MQM error's severity (mistakes.severity), the gravest first: Okabe–Ito colours, and for reading without colour
# a line of its own under the span and initials in its label (severities.py).
SEVERITIES = ["Critical", "Major", "Minor", "Neutral"]
SEVERITY_COLOURS = {"Critical": "#CC79A7", "Major": "#D55E00", "Minor": "#0072B2", "Neutral": "#999999"}
SEVERITY_LINES = {"Critical": "double", "Major": "solid", "Minor": "dashed", "Neutral": "dotted"}
SEVERITY_INITIALS = {"Critical": "Cr", "Major": "Ma", "Minor": "Mi", "Neutral": "Ne"}


# The Okabe–Ito colours in the order another corpus's categories without a colour of their own take them.
SPARE_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000"]
# A corpus's colour is its importer's text, put into style attributes: only these forms are taken, so it never
# carries anything else into the page (a "; background: url(…)" would).
HEX_COLOUR = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")
RGB_COLOUR = re.compile(r"rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(,\s*[0-9.]+\s*)?\)")


def hex_colour(given: str | None) -> str | None:
    """A corpus's colour (#rgb, #rrggbb, rgb(r, g, b) as factgenie writes it) as #rrggbb; None for anything else."""
    given = (given or "").strip()
    if HEX_COLOUR.fullmatch(given):
        digits = given[1:]
        return "#" + (digits if len(digits) == 6 else "".join(d * 2 for d in digits)).upper()
    if match := RGB_COLOUR.fullmatch(given):
        channels = [int(match[i]) for i in (1, 2, 3)]
        if all(c <= 255 for c in channels):
            return "#" + "".join(f"{c:02X}" for c in channels)
    return None


def initials_of(names: list[str]) -> dict[str, str]:
    """Short labels for categories, distinct within the list: the first letters of their words (Not checkable:
    Nc), lengthened from the name while two are alike, and their positions (1, 2…) as a last resort."""
    words = {name: [w for w in re.split(r"[\s_-]+", name) if w] or [name] for name in names}
    labels = {name: "".join(w[0] for w in parts).capitalize() for name, parts in words.items()}
    for length in range(2, max((len(name) for name in names), default=0) + 1):
        uses = Counter(labels.values())  # counted once a round: a count per name made 4,000 names take seconds
        clashing = {name for name in names if uses[labels[name]] > 1}
        if not clashing:
            break
        for name in clashing:
            labels[name] = name[:length].replace(" ", "").capitalize()
    if len(set(labels.values())) < len(names) or "" in labels.values():
        return {name: str(position) for position, name in enumerate(names, start=1)}
    return labels


@dataclass(frozen=True)
class Categories:
    """A corpus's categories in report order, with the colour and the initials each is shown with."""

    names: list[str]
    colours: dict[str, str]
    initials: dict[str, str]

    @classmethod
    def of(cls, rows: list[tuple[str, str | None]]) -> Categories:
        """From the rows of the categories table (category, colour) in position order: a colour it does not give
        (or gives in a form not taken) is the first Okabe–Ito colour the corpus does not use yet."""
        names = [name for name, _ in rows]
        given = {name: hex_colour(colour) for name, colour in rows}
        spare = [c for c in SPARE_COLOURS if c not in given.values()] or SPARE_COLOURS
        colours, spares_taken = {}, 0
        for name in names:
            if given[name]:
                colours[name] = given[name]
            else:
                colours[name] = spare[spares_taken % len(spare)]
                spares_taken += 1
        return cls(names, colours, initials_of(names))

    def colour(self, category: str) -> str:
        return self.colours.get(category, "#999999")

    def initial(self, category: str) -> str:
        return self.initials.get(category, "?")

    def scale(self) -> alt.Scale:
        return alt.Scale(domain=self.names, range=[self.colours[c] for c in self.names])


SHARED_TASK = Categories(CATEGORIES, CATEGORY_COLOURS, CATEGORY_INITIALS)


def outcome_scale() -> alt.Scale:
    """Outcomes by their labels, as the tables and filters name them."""
    return alt.Scale(domain=[OUTCOME_LABELS[o] for o in OUTCOMES], range=[OUTCOME_COLOURS[o] for o in OUTCOMES])


def tint(colour: str, alpha: float = 0.28) -> str:
    """A colour as a translucent background, for text on it to stay readable."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red}, {green}, {blue}, {alpha})"
