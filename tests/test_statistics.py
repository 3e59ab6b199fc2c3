"""The per-text sufficient statistics (queries/stats/text_statistics.sql): every score is their sum."""

from __future__ import annotations

COUNTS = ("matched", "gold", "submitted", "token_matched", "gold_tokens", "submitted_tokens")
SCORE_COUNTS = ("matched", "gold_total", "submitted_total", "token_matched", "gold_tokens", "submitted_tokens")


def test_scores_are_the_sums_of_the_text_statistics(built):
    sums = built.execute(
        f"SELECT submission_id, scope, {', '.join(f'sum({c})::BIGINT' for c in COUNTS)}"
        " FROM text_statistics GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    scores = built.execute(
        f"SELECT submission_id, scope, {', '.join(SCORE_COUNTS)} FROM scores ORDER BY ALL"
    ).fetchall()
    assert len(scores) == 5 * 7
    assert sums == scores


def test_every_text_of_the_split_has_a_row_in_every_scope(built):
    rows = built.execute("SELECT split, count(*) FROM text_statistics GROUP BY submission_id, scope, split").fetchall()
    texts = dict(built.execute("SELECT split, count(*) FROM texts GROUP BY split").fetchall())
    assert len(rows) == 5 * 7
    assert all(count == texts[split] for split, count in rows)


def test_a_text_without_mistakes_on_either_side_counts_with_zeros(built):
    # The OTHER category has one gold mistake in the train split: every other text has zeros in that scope.
    zeros = built.execute(
        f"SELECT count(*) FROM text_statistics WHERE scope = 'OTHER' AND split = 'train'"
        f" AND {' AND '.join(f'{c} = 0' for c in COUNTS)}"
    ).fetchall()[0][0]
    submissions = built.execute("SELECT count(*) FROM evaluations WHERE split = 'train'").fetchall()[0][0]
    assert zeros >= submissions * 58
