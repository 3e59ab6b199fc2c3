"""The document view's HTML: spans marked on the tokens, outcomes readable without colour, text escaped."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from accuracy_db.dashboard.palette import CATEGORIES, CATEGORY_COLOURS, CATEGORY_INITIALS
from accuracy_db.dashboard.spans import Span, legend_html, text_html

TOKENS = ["The", "Celtics", "won", "on", "Wednesday", "."]


def test_gold_and_submitted_spans_are_marked_on_their_tokens():
    gold = [Span("G1", "gold", 4, 5, "NAME", "matched", correction="Friday", counterpart="S1")]
    submitted = [
        Span("S1", "submitted", 5, 5, "NAME", "matched", counterpart="G1"),
        Span("S2", "submitted", 2, 2, "NAME", "false_alarm", comment="not the Celtics"),
    ]
    html = text_html(TOKENS, gold, submitted)
    assert html.count("<sup") == 2  # G1 after its last token, S2 as a false alarm; a matched S1 needs no label
    assert ">G1·Na✓</sup>" in html and ">S2·Na!</sup>" in html  # label, category initials, outcome
    assert "underline wavy" in html and "underline solid" in html  # false alarm and match, without colour
    wednesday = html[html.index(">Wednesday<") - 400 : html.index(">Wednesday<")]
    assert "Gold mistake G1 · NAME · matched (with S1)\nCorrection: Friday" in wednesday
    assert "Submitted mistake S1 · NAME · matched (with G1)" in wednesday
    # The space inside the gold span ("on Wednesday") is marked too; the one before it is not.
    assert html.count('style="background') == 3  # on, the space, Wednesday
    # Each marked token takes the focus on a click or a tap, and its detail panel follows it.
    assert html.count('tabindex="0"') == html.count('class="adb-detail"') == 3  # Celtics, on, Wednesday
    assert ".adb-mark:focus + .adb-detail" in html
    panel = html[html.index(">Wednesday<") :]
    panel = panel[panel.index('class="adb-detail"') : panel.index("</span>", panel.index('class="adb-detail"'))]
    assert "Gold mistake G1 · NAME · matched (with S1)\nCorrection: Friday" in panel


def test_text_and_notes_are_escaped():
    html = text_html(["a", "<b>", "c"], [Span("G1", "gold", 2, 2, "WORD", "missed", comment='"x" & <script>')], [])
    assert "&lt;b&gt;" in html and "<b>" not in html
    assert "<script>" not in html and "&quot;x&quot; &amp; &lt;script&gt;" in html


def test_without_a_submission_gold_spans_have_no_outcome():
    html = text_html(TOKENS, [Span("G1", "gold", 5, 5, "NAME", None)], [])
    assert ">G1·Na</sup>" in html and 'Gold mistake G1 · NAME"' in html
    assert "submitted" not in legend_html(["NAME"], with_submission=False)
    assert "false alarm" in legend_html(["NAME"])


def test_category_initials_tell_every_category_apart():
    assert set(CATEGORY_INITIALS) == set(CATEGORIES)
    assert len(set(CATEGORY_INITIALS.values())) == len(CATEGORIES)


# Colour vision deficiencies simulated as in Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
VISIONS = {
    "normal": np.eye(3),
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


def lab(colour: str, vision: str) -> np.ndarray:
    """CIELAB (D65) of a #rrggbb colour as someone with this vision sees it."""
    srgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    seen = np.clip(np.asarray(VISIONS[vision]) @ linear, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ seen
    f = np.cbrt(np.maximum(xyz / [0.95047, 1.0, 1.08883], 0.008856))
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("vision", VISIONS)
def test_category_colours_stay_apart_in_every_vision(vision):
    """Every two categories differ by a colour difference (CIE76) of at least 15 (about 7 just-noticeable
    differences), and NAME and NOT_CHECKABLE, which were two blues, by at least 40."""

    def difference(a: str, b: str) -> float:
        return float(np.linalg.norm(lab(CATEGORY_COLOURS[a], vision) - lab(CATEGORY_COLOURS[b], vision)))

    assert min(difference(a, b) for a, b in itertools.combinations(CATEGORIES, 2)) >= 15
    assert difference("NAME", "NOT_CHECKABLE") >= 40
