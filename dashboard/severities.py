"""A text (or its input) as HTML with the errors raters marked on it by severity (queries/marts/rated_error_spans.sql):
an MQM corpus's source and target in the document view.

Each error's characters are underlined in its severity's colour, in its severity's line (Critical double, Major
solid, Minor dashed, Neutral dotted: palette.SEVERITY_LINES), under a tint of that colour, and after it comes a
label like ``E3·Ma``: E and its number in the errors table, then its severity's initials. So the severity reads from
the line and the label without colour. Where the errors of several raters overlap, the gravest one's colour and line
are drawn, and every marked character says what each error on it is (severity, category, rater) in its tooltip and
in the panel a click opens (spans.STYLE)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .palette import SEVERITIES, SEVERITY_COLOURS, SEVERITY_INITIALS, SEVERITY_LINES, tint
from .spans import STYLE


@dataclass(frozen=True)
class RatedError:
    """An error a rater marked on characters [start, end) of the text or of its input."""

    label: str  # E3: its row in the errors table
    start: int
    end: int
    severity: str
    category: str
    rater: str

    def describe(self) -> str:
        return f"{self.label} · {self.severity} · {self.category} · {self.rater}"


def _gravity(error: RatedError) -> int:
    return SEVERITIES.index(error.severity) if error.severity in SEVERITIES else len(SEVERITIES)


def _style(error: RatedError) -> str:
    colour = SEVERITY_COLOURS.get(error.severity, "#555555")
    line = SEVERITY_LINES.get(error.severity, "solid")
    return (
        f"background: {tint(colour, 0.18)}; text-decoration: underline {line} {colour}; "
        "text-decoration-thickness: 2px; text-underline-offset: 4px; text-decoration-skip-ink: none"
    )


def _label(error: RatedError) -> str:
    colour = SEVERITY_COLOURS.get(error.severity, "#555555")
    text = f"{escape(error.label)}·{escape(SEVERITY_INITIALS.get(error.severity, '?'))}"
    return f'<sup style="color: {colour}" title="{escape(error.describe())}">{text}</sup>'


def rated_html(text: str, errors: list[RatedError]) -> str:
    """The text with its errors marked by severity, as one HTML block: the text cut where an error starts or ends,
    each piece drawn as the gravest error on it, and each error's label after its last character."""

    def at(position: int) -> int:
        return min(max(position, 0), len(text))

    bounds = sorted({0, len(text), *(at(error.start) for error in errors), *(at(error.end) for error in errors)})
    ending = {}  # each error's label goes after its last character (an empty span's, where it is)
    for error in errors:
        ending.setdefault(at(error.end), []).append(error)
    parts = [_label(error) for error in ending.get(0, [])]
    for start, end in zip(bounds, bounds[1:]):
        on = sorted((error for error in errors if error.start <= start and end <= error.end), key=_gravity)
        piece = escape(text[start:end])
        if on:
            title = "\n".join(error.describe() for error in on)
            classes = f"adb-mark adb-severity adb-severity-{escape(on[0].severity)}"
            parts.append(
                f'<span class="{classes}" tabindex="0" style="{_style(on[0])}" title="{escape(title)}">{piece}</span>'
                f'<span class="adb-detail" role="tooltip">{escape(title)}</span>'
            )
        else:
            parts.append(piece)
        parts += [_label(error) for error in ending.get(end, [])]
    return f'{STYLE}<div class="adb-text">{"".join(parts)}</div>'


def severity_legend_html(shown: list[str]) -> str:
    """What each severity's colour, line and initials are (the severities shown, the gravest first)."""
    items = [
        f'<span style="{_style(RatedError("", 0, 0, severity, "", ""))}">{escape(severity)}</span> '
        f"<b>E1·{escape(SEVERITY_INITIALS.get(severity, '?'))}</b>"
        for severity in sorted(shown, key=lambda s: SEVERITIES.index(s) if s in SEVERITIES else len(SEVERITIES))
    ]
    items.append("<span>point at a marked word, or click it, for its errors' category and rater</span>")
    return f'{STYLE}<div class="adb-legend">{" ".join(items)}</div>'
