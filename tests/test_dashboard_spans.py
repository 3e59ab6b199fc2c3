"""The document view's HTML: spans marked on the tokens, outcomes readable without colour, text escaped."""

from __future__ import annotations

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
    assert ">G1✓</sup>" in html and ">S2!</sup>" in html
    assert "underline wavy" in html and "underline solid" in html  # false alarm and match, without colour
    wednesday = html[html.index(">Wednesday<") - 400 : html.index(">Wednesday<")]
    assert "Gold mistake G1 · NAME · matched (with S1)\nCorrection: Friday" in wednesday
    assert "Submitted mistake S1 · NAME · matched (with G1)" in wednesday
    # The space inside the gold span ("on Wednesday") is marked too; the one before it is not.
    assert html.count('<span style="background') == 3  # on, the space, Wednesday


def test_text_and_notes_are_escaped():
    html = text_html(["a", "<b>", "c"], [Span("G1", "gold", 2, 2, "WORD", "missed", comment='"x" & <script>')], [])
    assert "&lt;b&gt;" in html and "<b>" not in html
    assert "<script>" not in html and "&quot;x&quot; &amp; &lt;script&gt;" in html


def test_without_a_submission_gold_spans_have_no_outcome():
    html = text_html(TOKENS, [Span("G1", "gold", 5, 5, "NAME", None)], [])
    assert ">G1</sup>" in html and 'Gold mistake G1 · NAME"' in html
    assert "submitted" not in legend_html(["NAME"], with_submission=False)
    assert "false alarm" in legend_html(["NAME"])
