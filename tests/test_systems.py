"""accuracy-db systems: the generating systems ranked by mean weighted errors per text, against the MQM oracle on
the real TED zh→en file (means, and a numpy bootstrap and permutation test with their own random generator), and
against the shared task's published means per neural system."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest
from mqm_oracle import GOOGLE, segment_scores
from test_mqm import CORPUS, PUBLISHED, mqm_db  # noqa: F401 (the fixture)

from accuracy_db.cli.main import run
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.system_ranking import ranked_systems
from accuracy_db.store import database

RESAMPLES = 2000
TRIALS = 4000


def ranked(db, *args, **kwargs) -> list[dict]:
    con = database.open_existing(db)
    try:
        return ranked_systems(con, *args, **kwargs)
    finally:
        con.close()


def matrix(weights: dict = GOOGLE) -> tuple[list[str], np.ndarray]:
    """The oracle's scores as (systems × segments), systems and segments sorted."""
    scores = segment_scores(weights)
    systems = sorted({system for system, _, _ in scores})
    segments = sorted({(doc, seg_id) for _, doc, seg_id in scores})
    return systems, np.array([[scores[(s, d, i)] for d, i in segments] for s in systems])


def test_systems_are_ranked_by_the_oracles_means(mqm_db):  # noqa: F811
    systems, scores = matrix()
    found = ranked(mqm_db, CORPUS)
    assert [row["system"] for row in found] == sorted(PUBLISHED, key=PUBLISHED.get)
    means = dict(zip(systems, scores.mean(axis=1), strict=True))
    for number, row in enumerate(found, start=1):
        assert row["score"] == pytest.approx(means[row["system"]], abs=1e-9)
        assert (row["texts"], row["rank"], row["human"], row["ci"]) == (
            529,
            number,
            row["system"] in ("ref", "refB"),
            None,
        )


def test_count_weights_rank_by_errors_per_text(mqm_db):  # noqa: F811
    systems, scores = matrix({"major": 1, "minor": 1, "neutral": 1, "critical": 1})
    found = {row["system"]: row["score"] for row in ranked(mqm_db, CORPUS, weights="count")}
    assert found == {s: pytest.approx(m, abs=1e-9) for s, m in zip(systems, scores.mean(axis=1), strict=True)}


def test_the_shared_task_ranks_its_neural_systems_by_gold_mistakes_per_text(built_db):
    found = ranked(built_db, "shared-task")
    # The data's README: on the 21 texts of nlg_systems.csv, 21.6 (Wiseman), 21.9 (Puduppully), 15.4 (Rebuffel).
    assert [(row["system"], round(row["score"], 1), row["texts"]) for row in found] == [
        ("rebuffel", 15.4, 7),
        ("wiseman", 21.6, 7),
        ("puduppully", 21.9, 7),
    ]


def oracle_clusters(scores: np.ndarray, order: list[int], rng: np.random.Generator) -> list[int]:
    """The WMT walk down the ranking with a paired permutation test (each segment's two scores swapped with
    probability 1/2; p = (c + 1) / (N + 1), c the trials at least as far from 0 as the observed difference)."""
    numbers, members, number = [], [], 1
    for system in order:
        significant = False
        for member in members:
            difference = scores[member] - scores[system]
            signs = np.where(rng.random((TRIALS, scores.shape[1])) < 0.5, -1.0, 1.0)
            permuted = np.abs(signs @ difference) / scores.shape[1]
            observed = abs(difference.mean())
            p = (np.sum(permuted >= observed - 1e-12) + 1) / (TRIALS + 1)
            significant |= bool(p < 0.05 and difference.mean() < 0)
        if significant:
            number, members = number + 1, []
        members.append(system)
        numbers.append(number)
    return numbers


def test_intervals_and_clusters_agree_with_a_numpy_bootstrap_and_permutation_test(mqm_db):  # noqa: F811
    systems, scores = matrix()
    found = ranked(mqm_db, CORPUS, ci=Resampling(RESAMPLES, 7, 0.95), trials=TRIALS)
    rng = np.random.default_rng(2024)
    draws = rng.integers(0, scores.shape[1], size=(RESAMPLES, scores.shape[1]))  # segments, the same for all systems
    means = scores[:, draws].mean(axis=2)  # (systems, resamples)
    low, high = np.percentile(means, [2.5, 97.5], axis=1)
    at = {system: number for number, system in enumerate(systems)}
    for row in found:
        # 5 standard errors of a 2.5 % quantile of 2,000 replicates here (about 0.008)
        assert row["ci"] == [
            pytest.approx(low[at[row["system"]]], abs=0.04),
            pytest.approx(high[at[row["system"]]], abs=0.04),
        ]
    order = [at[row["system"]] for row in found]
    assert [row["cluster"] for row in found] == oracle_clusters(scores, order, rng)
    assert [row["cluster"] for row in found][:2] == [1, 2] and found[-1]["cluster"] > found[-2]["cluster"]


def test_the_command_prints_the_ranking_as_json(mqm_db, capsys):  # noqa: F811
    assert run(["systems", "--db", str(mqm_db), "--corpus", CORPUS, "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert {key for row in found for key in row} == {"system", "split", "score", "ci", "texts", "rank", "human"}
    by_system = defaultdict(list)
    for row in found:
        by_system[row["system"]].append(row["score"])
    assert {system: scores[0] for system, scores in by_system.items()} == pytest.approx(PUBLISHED, abs=0.01)


def test_a_corpus_without_known_systems_is_refused_in_one_line(tmp_path, built_db, capsys):
    assert run(["systems", "--db", str(built_db), "--corpus", "nowhere"]) == 1
    assert capsys.readouterr().err.startswith("error: no corpus named 'nowhere'")
