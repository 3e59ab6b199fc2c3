"""A text as HTML with two lists of spans marked on it: the gold mistakes and one submission's.

* A gold mistake has a background in its category's colour, and after it a label like ``G3·Na✗``: G and its
  number in the side list, its category's initials (palette.CATEGORY_INITIALS), then ✓ when a submitted mistake
  matched it, ✗ when it was missed.
* A submitted mistake is underlined in its category's colour: a solid line when it matched a gold mistake, a
  wavy one for a false alarm, which also gets a label like ``S5·Nu!``.

So the category and the outcome read from the labels and the line style, without colour. Every marked token
says what it is (the category, the outcome, the correction and the comment) in a panel that a click or a tap
opens (it takes the focus; CSS shows the panel after the focused token: no script) and in its tooltip.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .palette import OUTCOME_LABELS, OUTCOME_SYMBOLS, SHARED_TASK, Categories, tint

STYLE = """<style>
.adb-text { line-height: 2.1; font-size: 1.02rem; }
.adb-text sup { font-size: 0.68rem; font-weight: 600; margin: 0 0.2em 0 0.1em; }
.adb-legend { font-size: 0.85rem; line-height: 2; }
.adb-legend span { margin-right: 0.9em; white-space: nowrap; }
.adb-text { position: relative; }
.adb-mark { cursor: pointer; }
.adb-mark:focus { outline: 2px solid #444; outline-offset: 1px; }
.adb-detail { display: none; }
.adb-mark:focus + .adb-detail {
  display: block; position: absolute; z-index: 10; margin-top: 0.4em; max-width: 28em; padding: 0.4em 0.7em;
  background: #fff; color: #222; border: 1px solid #888; border-radius: 6px; box-shadow: 0 2px 8px #0003;
  font-size: 0.88rem; line-height: 1.4; white-space: pre-line;
}
</style>"""


@dataclass(frozen=True)
class Span:
    """A marked span of tokens, inclusive, counted from 1 in the document."""

    label: str  # G3, S5: its row in the side list
    side: str  # gold or submitted
    start: int
    end: int
    category: str
    outcome: str | None  # matched, missed or false_alarm; None when no submission is shown
    tokens: str | None = None  # the marked tokens as the list gives them
    correction: str | None = None
    comment: str | None = None
    counterpart: str | None = None  # the label of the span it was matched with
    list_name: str | None = None  # in lanes, the list it is of

    def describe(self) -> str:
        """What the tooltip says about it."""
        kind = "Gold mistake" if self.side == "gold" else "Submitted mistake"
        if self.list_name is not None:
            kind = f"{self.list_name}:"
        lines = [" · ".join(filter(None, (f"{kind} {self.label}", self.category, OUTCOME_LABELS.get(self.outcome))))]
        if self.counterpart:
            lines[0] += f" (with {self.counterpart})"
        notes = (("Correction", self.correction), ("Comment", self.comment))
        lines += [f"{name}: {text}" for name, text in notes if text]
        return "\n".join(lines)


def _by_token(spans: list[Span], token_count: int) -> list[Span | None]:
    at: list[Span | None] = [None] * (token_count + 2)
    for span in spans:
        for position in range(span.start, min(span.end, token_count) + 1):
            at[position] = span
    return at


def _style(gold: Span | None, submitted: Span | None, categories: Categories) -> str:
    rules = []
    if gold is not None:
        rules.append(f"background: {tint(categories.colour(gold.category))}")
    if submitted is not None:
        line = "solid" if submitted.outcome == "matched" else "wavy"
        colour = categories.colour(submitted.category)
        rules += [
            f"text-decoration: underline {line} {colour}",
            "text-decoration-thickness: 3px",
            "text-underline-offset: 4px",
            "text-decoration-skip-ink: none",
        ]
    return "; ".join(rules)


def _classes(gold: Span | None, submitted: Span | None) -> str:
    """A marked token's classes: adb-mark, and adb-m-<label> of each mistake on it (box_score lights the rows a
    mistake names by them)."""
    return " ".join(["adb-mark", *(f"adb-m-{escape(span.label)}" for span in (gold, submitted) if span is not None)])


def _label(span: Span, categories: Categories) -> str:
    colour = categories.colour(span.category)
    symbol = OUTCOME_SYMBOLS.get(span.outcome, "")
    initials = categories.initial(span.category)
    text = f"{escape(span.label)}·{escape(initials)}{symbol}"
    return f'<sup style="color: {colour}" title="{escape(span.describe())}">{text}</sup>'


def text_html(tokens: list[str], gold: list[Span], submitted: list[Span], categories: Categories = SHARED_TASK) -> str:
    """The text with both lists of spans marked, as one HTML block."""
    gold_at, submitted_at = _by_token(gold, len(tokens)), _by_token(submitted, len(tokens))
    parts = []
    for position, token in enumerate(tokens, start=1):
        g, s = gold_at[position], submitted_at[position]
        if g is None and s is None:
            parts.append(escape(token))
        else:
            title = "\n\n".join(span.describe() for span in (g, s) if span is not None)
            style = _style(g, s, categories)
            parts.append(
                f'<span class="{_classes(g, s)}" tabindex="0" style="{style}" title="{escape(title)}">'
                f'{escape(token)}</span><span class="adb-detail" role="tooltip">{escape(title)}</span>'
            )
        for span in (g, s):
            if span is not None and span.end == position and (span.side == "gold" or span.outcome == "false_alarm"):
                parts.append(_label(span, categories))
        if position < len(tokens):
            # The space between two tokens of one span is marked as the span is.
            next_g, next_s = gold_at[position + 1], submitted_at[position + 1]
            between = _style(g if g is next_g else None, s if s is next_s else None, categories)
            parts.append(f'<span style="{between}"> </span>' if between else " ")
    return f'{STYLE}<div class="adb-text">{"".join(parts)}</div>'


def _category_items(shown: list[str], categories: Categories) -> list[str]:
    return [
        f'<span style="background: {tint(categories.colour(c))}; padding: 0 0.3em">'
        f"{escape(c)} ({escape(categories.initial(c))})</span>"
        for c in shown
    ]


def legend_html(shown: list[str], with_submission: bool = True, categories: Categories = SHARED_TASK) -> str:
    """What the colours, lines and labels mean (only the gold mistakes' labels when no submission is shown)."""
    items = _category_items(shown, categories)
    # The labels' examples in the corpus's own categories (the shared task's: Na, Nu, W).
    first, second, third = (escape(categories.initial(c)) for c in (categories.names * 3 or ["?"] * 3)[:3])
    if not with_submission:
        return f'{STYLE}<div class="adb-legend">{" ".join(items)} <span><b>G1·{first}</b> gold mistake</span></div>'
    items += [
        f"<span><b>G1·{first}✓</b> gold mistake, matched</span>",
        f"<span><b>G2·{second}✗</b> gold mistake, missed</span>",
        '<span style="text-decoration: underline solid #555; text-decoration-thickness: 3px">submitted, matched</span>',
        '<span style="text-decoration: underline wavy #555; text-decoration-thickness: 3px">'
        f"submitted, false alarm</span> <b>S1·{third}!</b>",
        "<span>click a marked word for its details</span>",
    ]
    return f'{STYLE}<div class="adb-legend">{" ".join(items)}</div>'


# Lanes: any number of lists on one text, each a stripe under the tokens at its own height (lane 1 nearest the
# text), so that lists marking the same tokens never hide each other.
LANE_STEP = 5  # px between two lanes' stripes
LANE_THICKNESS = 3  # px


MAX_LANES = 8


def lane_letter(number: int) -> str:
    """The letter of the lane (from 0) that its spans' labels start with: A, B, C…"""
    return chr(ord("A") + number)


@dataclass(frozen=True)
class Lane:
    """One list drawn as a lane: its name, and its spans (labelled with the lane's letter: A1, A2…)."""

    name: str
    spans: list[Span]


def _stripes(at: list[Span | None], categories: Categories) -> str:
    """The background layers of a token that the spans at it (one per lane, or None) underline: solid when the
    span was matched or has no outcome, dashed when it was not (missed, a false alarm, a disagreement)."""
    layers = []
    for lane, span in enumerate(at):
        if span is None:
            continue
        colour = categories.colour(span.category)
        image = (
            f"linear-gradient({colour}, {colour})"
            if span.outcome in (None, "matched")
            else f"repeating-linear-gradient(90deg, {colour} 0 6px, transparent 6px 9px)"
        )
        layers.append(f"{image} left 0 bottom {lane * LANE_STEP}px / 100% {LANE_THICKNESS}px no-repeat")
    return f"background: {', '.join(layers)}" if layers else ""


def lanes_html(tokens: list[str], lanes: list[Lane], categories: Categories = SHARED_TASK) -> str:
    """The text with each list's spans in a lane of its own, and after each span its label (A3·Nu, with ✓ ✗ or !
    when it has an outcome), as one HTML block."""
    at = [_by_token(lane.spans, len(tokens)) for lane in lanes]
    padding = f"padding-bottom: {LANE_STEP * len(lanes)}px"
    parts = []
    for position, token in enumerate(tokens, start=1):
        here = [lane_at[position] for lane_at in at]
        marked = [span for span in here if span is not None]
        if not marked:
            parts.append(escape(token))
        else:
            title = "\n\n".join(span.describe() for span in marked)
            classes = " ".join(["adb-mark", *(f"adb-m-{escape(span.label)}" for span in marked)])
            parts.append(
                f'<span class="{classes}" tabindex="0" style="{padding}; {_stripes(here, categories)}" '
                f'title="{escape(title)}">{escape(token)}</span>'
                f'<span class="adb-detail" role="tooltip">{escape(title)}</span>'
            )
        parts += [_label(span, categories) for span in marked if span.end == position]
        if position < len(tokens):
            # The space between two tokens of one span is striped as the span is.
            going_on = [span if span is not None and span is lane_at[position + 1] else None
                        for span, lane_at in zip(here, at)]  # fmt: skip
            stripes = _stripes(going_on, categories)
            parts.append(f'<span style="{padding}; {stripes}"> </span>' if stripes else " ")
    height = 2.1 + 0.3 * len(lanes)
    return f'{STYLE}<div class="adb-text" style="line-height: {height:.1f}">{"".join(parts)}</div>'


def lanes_legend_html(
    lanes: list[Lane], shown: list[str], categories: Categories = SHARED_TASK, stacked: bool = True
) -> str:
    """Which list each letter is (and, stacked, which lane: lane 1 nearest the text), what the colours and the two
    lines mean."""
    items = [
        f"<span><b>{lane_letter(n)}</b> {f'lane {n + 1}: ' if stacked else ''}{escape(lane.name)}</span>"
        for n, lane in enumerate(lanes)
    ]
    items += _category_items(shown, categories)
    items += [
        '<span style="border-bottom: 3px solid #555">matched (or no outcome)</span>',
        '<span style="border-bottom: 3px dashed #555">not matched</span> <b>✗</b> missed <b>!</b> false alarm',
        "<span>click a marked word for its details</span>",
    ]
    return f'{STYLE}<div class="adb-legend">{" ".join(items)}</div>'
