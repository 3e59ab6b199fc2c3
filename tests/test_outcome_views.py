"""The views behind the dashboard's errors and documents: mistake_outcomes and mistake_contexts."""

from __future__ import annotations


def test_outcomes_add_up_to_the_counts_behind_the_scores(built):
    """In every scope of every submission: matched gold rows = matched, missed = gold - matched, false alarms =
    submitted - matched, and each matched submitted row pairs with a matched gold row."""
    differences = built.execute("""
        WITH outcomes AS (
            SELECT
                submission_id,
                scope,
                count(*) FILTER (WHERE side = 'gold' AND outcome = 'matched') AS matched_gold,
                count(*) FILTER (WHERE side = 'submitted' AND outcome = 'matched') AS matched_submitted,
                count(*) FILTER (WHERE outcome = 'missed') AS missed,
                count(*) FILTER (WHERE outcome = 'false_alarm') AS false_alarms
            FROM mistake_outcomes
            GROUP BY ALL
        )
        SELECT scores.submission, scores.scope
        FROM scores
        LEFT JOIN outcomes USING (submission_id, scope)
        WHERE coalesce(matched_gold, 0) <> scores.matched
            OR coalesce(matched_submitted, 0) <> scores.matched
            OR coalesce(missed, 0) <> scores.gold_total - scores.matched
            OR coalesce(false_alarms, 0) <> scores.submitted_total - scores.matched
    """).fetchall()
    assert differences == []
    assert built.execute("SELECT count(*) FROM scores").fetchone()[0] == 5 * 7


def test_outcomes_of_the_example_submission_in_the_name_scope(built):
    """submission.csv in the NAME scope: 160 of 317 gold NAME mistakes matched, 237 submitted (the README's table)."""
    rows = built.execute("""
        SELECT side, outcome, count(*)
        FROM mistake_outcomes
        WHERE submission = 'submission' AND scope = 'NAME'
        GROUP BY ALL
        ORDER BY ALL
    """).fetchall()
    assert rows == [
        ("gold", "matched", 160),
        ("gold", "missed", 317 - 160),
        ("submitted", "false_alarm", 237 - 160),
        ("submitted", "matched", 160),
    ]


def test_a_matched_pair_names_each_other(built):
    """The gold 'Wednesday' of S001 (it was a Friday) and the example submission's mistake on the same token."""
    pair = dict(
        (side, (mistake_id, counterpart_id, outcome))
        for side, mistake_id, counterpart_id, outcome in built.execute("""
            SELECT side, mistake_id, counterpart_id, outcome
            FROM mistake_outcomes
            WHERE submission = 'submission' AND scope = 'ALL' AND text_id = 'S001' AND doc_token_start = 18
        """).fetchall()
    )
    gold_id, gold_counterpart, gold_outcome = pair["gold"]
    submitted_id, submitted_counterpart, submitted_outcome = pair["submitted"]
    assert (gold_counterpart, submitted_counterpart) == (submitted_id, gold_id)
    assert gold_outcome == submitted_outcome == "matched"


def test_a_mistake_in_its_context(built):
    """S001, token 18: '… , at TD Garden on [Wednesday] . The Celtics ( 32 …', five tokens either side."""
    row = built.execute("""
        SELECT context_before, marked, context_after
        FROM mistake_contexts
        JOIN gold_mistakes USING (mistake_id)
        WHERE text_id = 'S001' AND doc_token_start = 18
    """).fetchone()
    assert row == (", at TD Garden on", "Wednesday", ". The Celtics ( 32")


def test_context_stops_at_the_start_of_the_text(built):
    contexts = built.execute("""
        SELECT mistakes.doc_token_start, context_before
        FROM mistake_contexts
        JOIN mistakes USING (mistake_id)
        WHERE mistakes.doc_token_start <= 5
    """).fetchall()
    assert contexts, "some mistake starts within the first five tokens of its text"
    assert all(len(before.split()) == start - 1 for start, before in contexts)
