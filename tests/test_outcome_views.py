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
    # the five examples, and the box-score checker's list of each split (build adds it)
    assert built.execute("SELECT count(*) FROM scores").fetchone()[0] == (5 + 2) * 7


def test_scored_mistake_counts_count_the_outcomes_of_each_scope(built):
    """The errors page's counts: for each submission, side and category, the mistakes with each outcome in ALL and
    in the category's scope, as mistake_outcomes gives them a row per scope; and the matched gold rows of the NAME
    scope are the evaluate example's 160 (docs/scoring.md)."""
    expected = built.execute("""
        SELECT in_all.submission_id, in_all.submission, in_all.split, in_all.side, in_all.category,
            in_all.outcome, in_category.outcome, count(*)
        FROM mistake_outcomes AS in_all
        JOIN mistake_outcomes AS in_category
            ON in_category.submission_id = in_all.submission_id
            AND in_category.side = in_all.side
            AND in_category.mistake_id = in_all.mistake_id
            AND in_category.scope = in_all.category
        WHERE in_all.scope = 'ALL'
        GROUP BY ALL
        ORDER BY ALL
    """).fetchall()
    counts = built.execute("SELECT * FROM scored_mistake_counts ORDER BY ALL").fetchall()
    assert counts == expected
    assert len({row[0] for row in counts}) == 5 + 2  # every submission, the checker's list of each split too
    name_matched = built.execute("""
        SELECT sum(mistakes) FROM scored_mistake_counts
        WHERE submission = 'submission' AND side = 'gold' AND category = 'NAME' AND category_outcome = 'matched'
    """).fetchone()[0]
    assert name_matched == 160


def test_outcomes_of_the_example_submission_in_the_name_scope(built):
    """submission.csv in the NAME scope: 160 of 317 gold NAME mistakes matched, 237 submitted (the evaluate example's table in docs/scoring.md)."""
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
