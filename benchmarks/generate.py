"""Write a synthetic data folder in the shared task's layout, K times the size of its train split.

    python -m benchmarks.generate --scale K --submissions N --out DIR [--seed S] [--test-split]
    python -m benchmarks.generate --measure DIR     # the figures below, of a real or generated folder

The output is deterministic: the same arguments give byte-identical files. DIR receives:

* texts/S001.txt … (K×60 texts; the ids are as wide as K×60 needs, at least three digits): tokens joined by
  single spaces, every sentence ending with a '.' token, about 330 tokens and 12.5 sentences a text;
* gsml.csv: the gold list, both id schemes filled, TOKENS equal to the text at those positions. Every block of
  60 texts has exactly the real list's per-text counts (shuffled), category mix and span lengths per category
  (also shuffled), as measured from the real gsml.csv (the constants below; `--measure` recomputes them);
* games.csv (the train split's header spelling) and shared_task.jsonl: one game per text with a box score
  shaped like a Rotowire record (column-oriented box_score of strings, 'N/A' for players who did not play,
  home_line/vis_line with the TEAM-* keys; the last line has no newline);
* submissions/sub01.csv … subNN.csv: mistake lists of about the gold list's size, made from the gold list by
  exact hits, partial overlaps (wider, narrower or shifted spans), spans that touch two gold mistakes (a bridge
  from one's last token to the next one's first, or a merge of both), splits of one gold span into two, misses,
  and false alarms elsewhere in the texts; categories mostly right. Spans never overlap within a list and
  never cross a sentence end. Submission 1, 4, 7 … give document ids, 2, 5, 8 … sentence ids, 3, 6, 9 … both;
* with --test-split, test_set/ holds K×30 texts (T001 …) made the same way (games.csv with the test split's
  header spelling), and no submission names them.

token_lookup.yaml is not written: it is optional input, and would be about 1 GB at scale 1000.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
from collections import Counter
from pathlib import Path

import numpy as np

CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")

# --- measured from the real train split (python -m benchmarks.generate --measure <data folder>) ---
# Gold mistakes per text, the 60 texts of the real gsml.csv (1214 in all).
GOLD_PER_TEXT = [
    4, 8, 9, 9, 10, 10, 11, 11, 11, 11, 12, 12, 13, 14, 14, 14, 14, 15, 16, 16, 16, 16, 17, 17, 17, 18, 18, 18,
    19, 19, 20, 20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 22, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 30, 30, 31,
    34, 35, 38, 46, 53,
]  # fmt: skip
# Span length (tokens) -> number of gold mistakes, per category: NAME 317, NUMBER 474, WORD 334, CONTEXT 51,
# NOT_CHECKABLE 37, OTHER 1.
SPAN_LENGTHS = {
    "NAME": {1: 223, 2: 68, 3: 26},
    "NUMBER": {1: 469, 3: 5},
    "WORD": {1: 171, 2: 68, 3: 71, 4: 11, 5: 11, 6: 1, 12: 1},
    "CONTEXT": {2: 49, 3: 1, 5: 1},
    "NOT_CHECKABLE": {1: 7, 2: 12, 3: 4, 4: 1, 5: 4, 6: 2, 7: 4, 8: 1, 9: 2},
    "OTHER": {10: 1},
}
TEXT_TOKENS = (329.6, 82.5, 152, 565)  # mean, standard deviation, min, max tokens of a text
SENTENCE_TOKENS = 26.3  # mean tokens of a sentence ('.' included): 12.5 sentences a text
CORRECTION_SHARE = 839 / 1214  # gold rows with a CORRECTION
COMMENT_SHARE = 349 / 1214  # gold rows with a COMMENT
PLAYERS_PER_TEAM = (12, 13)  # the real box scores list 24 to 26 players a game
DID_NOT_PLAY = 3.8 / 25.6  # share of listed players without minutes
SUMMARY_TOKENS = 346  # mean tokens of the human-written reference summary

# --- vocabulary: (token, weight); the weights follow the real texts' most frequent tokens ---
GENERAL = [
    (",", 65), ("-", 48), ("the", 46), ("and", 26), ("points", 23), ("in", 18), ("a", 18), ("rebounds", 17),
    ("with", 16), ("to", 14), ("on", 13), ("assists", 13), ("The", 12), ("(", 12), (")", 12), ("of", 10),
    ("was", 9), ("double", 8), ("from", 8), ("as", 8), ("for", 7), ("led", 7), ("game", 6), ("while", 5),
    ("he", 5), ("steals", 5), ("percent", 5), ("steal", 5), ("second", 5), ("point", 4), ("were", 4),
    ("at", 4), ("minutes", 4), ("'s", 4), ("FG", 4), ("3Pt", 3), ("FT", 3), ("they", 3), ("bench", 3),
    ("this", 3), ("off", 3), ("also", 3), ("block", 3), ("field", 3), ("quarter", 2), ("shooting", 2),
    ("team", 2), ("win", 2), ("night", 2), ("victory", 2), ("home", 2), ("road", 2), ("season", 2),
    ("scored", 2), ("finished", 2), ("added", 2), ("his", 2), ("their", 2), ("had", 2), ("first", 2),
    ("half", 1), ("fourth", 1), ("third", 1), ("next", 1), ("will", 1), ("look", 1), ("face", 1),
    ("against", 1), ("defeated", 1), ("record", 1), ("after", 1), ("over", 1), ("just", 1), ("only", 1),
    ("starters", 1), ("figures", 1), ("efficient", 1), ("went", 1), ("made", 1), ("line", 1), ("free", 1),
    ("throw", 1), ("lead", 1), ("outscored", 1), ("contest", 1), ("streak", 1), ("losing", 1), ("winning", 1),
    ("struggle", 1), ("behind", 1), ("starter", 1), ("big", 1), ("night", 1), ("blocks", 1), ("turnovers", 1),
    ("recorded", 1), ("tallied", 1), ("totaled", 1), ("posted", 1), ("provided", 1), ("spark", 1),
    ("n't", 1), ("did", 1), ("has", 1), ("have", 1), ("now", 1), ("won", 1), ("lost", 1), ("three", 1),
]  # fmt: skip
NUMBER_WORDS = ["a", "pair", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "second"]
NUMBERS = [str(n) for n in range(46)] + [str(n) for n in range(85, 131)] + NUMBER_WORDS
TEAMS = [  # city, name, basketball-reference abbreviation
    ("Atlanta", "Hawks", "ATL"), ("Boston", "Celtics", "BOS"), ("Brooklyn", "Nets", "BRK"),
    ("Charlotte", "Hornets", "CHO"), ("Chicago", "Bulls", "CHI"), ("Cleveland", "Cavaliers", "CLE"),
    ("Dallas", "Mavericks", "DAL"), ("Denver", "Nuggets", "DEN"), ("Detroit", "Pistons", "DET"),
    ("Golden State", "Warriors", "GSW"), ("Houston", "Rockets", "HOU"), ("Indiana", "Pacers", "IND"),
    ("LA", "Clippers", "LAC"), ("Los Angeles", "Lakers", "LAL"), ("Memphis", "Grizzlies", "MEM"),
    ("Miami", "Heat", "MIA"), ("Milwaukee", "Bucks", "MIL"), ("Minnesota", "Timberwolves", "MIN"),
    ("New Orleans", "Pelicans", "NOP"), ("New York", "Knicks", "NYK"), ("Oklahoma City", "Thunder", "OKC"),
    ("Orlando", "Magic", "ORL"), ("Philadelphia", "76ers", "PHI"), ("Phoenix", "Suns", "PHO"),
    ("Portland", "Trail Blazers", "POR"), ("Sacramento", "Kings", "SAC"), ("San Antonio", "Spurs", "SAS"),
    ("Toronto", "Raptors", "TOR"), ("Utah", "Jazz", "UTA"), ("Washington", "Wizards", "WAS"),
]  # fmt: skip
FIRST_NAMES = [
    "Al", "Andre", "Anthony", "Ben", "Bradley", "Brandon", "Carmelo", "Chris", "Damian", "DeMar", "Derrick",
    "Dwight", "Eric", "Gordon", "Isaiah", "Jae", "James", "Jeff", "Jimmy", "John", "Jordan", "Julius", "Karl",
    "Kawhi", "Kelly", "Kemba", "Kevin", "Kyle", "Kyrie", "LaMarcus", "LeBron", "Marcus", "Marc", "Mike", "Nikola",
    "Paul", "Rudy", "Russell", "Serge", "Stephen", "Terry", "Tristan", "Tyler", "Victor", "Zach",
]  # fmt: skip
LAST_NAMES = [
    "Aldridge", "Anthony", "Bazemore", "Beal", "Brown", "Butler", "Crowder", "Curry", "Davis", "DeRozan",
    "Drummond", "Durant", "Gasol", "Gay", "George", "Green", "Harden", "Hayward", "Horford", "Howard", "Ibaka",
    "Irving", "James", "Jokic", "Leonard", "Love", "Lowry", "Millsap", "Olynyk", "Oladipo", "Randle", "Rose",
    "Rozier", "Smart", "Teague", "Thomas", "Thompson", "Towns", "Walker", "Wall", "Westbrook", "Williams",
    "Young", "Zeller",
]  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
NAMES = sorted(
    {*FIRST_NAMES, *LAST_NAMES, *DAYS} | {word for city, name, _ in TEAMS for word in f"{city} {name}".split()}
)
COMMENTS = [
    "the team lost this game",
    "he scored fewer points, according to the box score",
    "not in the box score",
    "was not the leading scorer",
    "next game is on the road",
    'implies a "comeback" that did not happen',
]
STARTING_POSITIONS = ["F", "F", "C", "G", "G"]
GAMES_HEADER = {
    "train": "TEXT_ID,HOME_NAME,VIS_NAME,LINE_ID_FROM_TEST_SET,GENERATED_TEXT,DETOKENIZED_GENERATED_TEXT,DATE,"
    "BREF_BOX,BREF_HOME,BREF_VIS,CALENDAR",
    "test": "TEXT_ID,HOME_NAME,VIS_NAME,LINE_ID_FROM_TEST_SET,GENERATED_TEXT,DETOKENIZED_GENERATED_TEXT,DATE,"
    "BREF_BOX,BREF_HOME,BREF_VISITING,CALANDER",
}
LIST_HEADER = (
    "TEXT_ID,SENTENCE_ID,ANNOTATION_ID,TOKENS,SENT_TOKEN_START,SENT_TOKEN_END,DOC_TOKEN_START,DOC_TOKEN_END,"
    "TYPE,CORRECTION,COMMENT"
)
ID_SCHEMES = ("doc", "sent", "both")  # submission 1 gives document ids, 2 sentence ids, 3 both, 4 document ids …

# Submitted span made from a gold mistake, and how often (relative weights; a submission varies them).
ACTIONS = ("exact", "wider", "narrower", "shifted", "split", "bridge", "merge")
ACTION_WEIGHTS = (0.55, 0.12, 0.08, 0.07, 0.06, 0.06, 0.06)


def cell(value: str) -> str:
    """A CSV cell, quoted when it needs to be (as the csv module's QUOTE_MINIMAL does)."""
    if "," in value or '"' in value or "\n" in value:
        return '"' + value.replace('"', '""') + '"'
    return value


def grouped_arange(counts: np.ndarray) -> np.ndarray:
    """0, 1, …, count-1 for each count, concatenated."""
    ends = np.cumsum(counts)
    return np.arange(ends[-1] if len(ends) else 0) - np.repeat(ends - counts, counts)


def grouped_cumsum(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The inclusive running sum of values within each consecutive group of the given sizes."""
    total = np.cumsum(values)
    before = np.concatenate([[0], total])[np.cumsum(counts) - counts]
    return total - np.repeat(before, counts)


def detokenize(text: str) -> str:
    """Roughly how DETOKENIZED_GENERATED_TEXT reads: no space before punctuation, none around hyphens."""
    for spaced, joined in (
        (" ,", ","),
        (" .", "."),
        (" 's", "'s"),
        (" n't", "n't"),
        (" - ", "-"),
        ("( ", "("),
        (" )", ")"),
    ):
        text = text.replace(spaced, joined)
    return text


class Corpus:
    """The texts of one split and their gold list, as arrays over all tokens laid end to end (0-based positions).

    Every block of 60 texts gets the real gold list's per-text counts and its (category, span length) pairs,
    each shuffled. The spans are placed first, with random gaps; sentence ends are then put on tokens that no
    gold span covers, so a gold span never holds a '.' and never crosses a sentence.
    """

    def __init__(self, rng: np.random.Generator, prefix: str, texts: int, width: int):
        self.names = [f"{prefix}{number:0{width}}" for number in range(1, texts + 1)]
        self.place_gold(rng, texts)
        self.end_sentences(rng)
        self.choose_tokens(rng)

    def place_gold(self, rng: np.random.Generator, texts: int) -> None:
        blocks = -(-texts // 60)
        per_text = rng.permuted(np.tile(GOLD_PER_TEXT, (blocks, 1)), axis=1).ravel()[:texts]
        pairs = np.array(
            [
                (CATEGORIES.index(c), length)
                for c, lengths in SPAN_LENGTHS.items()
                for length, n in lengths.items()
                for _ in range(n)
            ]
        )
        order = rng.permuted(np.tile(np.arange(len(pairs)), (blocks, 1)), axis=1).ravel()[: per_text.sum()]
        self.gold_category, self.gold_length = pairs[order, 0], pairs[order, 1]
        self.gold_text = np.repeat(np.arange(texts), per_text)
        # Text lengths: the real spread, and room for every span, a gap between spans and the final '.'.
        span_tokens = np.bincount(self.gold_text, weights=self.gold_length, minlength=texts).astype(np.int64)
        mean, sd, low, high = TEXT_TOKENS
        tokens = np.clip(np.rint(rng.normal(mean, sd, texts)), low, high).astype(np.int64)
        self.text_tokens = np.maximum(tokens, span_tokens + 2 * per_text + 20)
        self.text_start = np.concatenate([[0], np.cumsum(self.text_tokens)[:-1]])
        # Gaps before each span and after the last, exponential shares of the free tokens (the last token of a
        # text is kept free for its '.').
        free = self.text_tokens - 1 - span_tokens
        slots = per_text + 1
        shares = rng.exponential(size=slots.sum())
        slot_text = np.repeat(np.arange(texts), slots)
        share_sums = np.bincount(slot_text, weights=shares, minlength=texts)
        gaps = np.floor(shares * free[slot_text] / share_sums[slot_text]).astype(np.int64)
        gap_before = np.delete(gaps, np.cumsum(slots) - 1)  # drop each text's trailing slot
        offset = grouped_cumsum(gap_before, per_text) + grouped_cumsum(self.gold_length, per_text) - self.gold_length
        self.gold_start = self.text_start[self.gold_text] + offset
        self.gold_end = self.gold_start + self.gold_length - 1

    def end_sentences(self, rng: np.random.Generator) -> None:
        total = int(self.text_tokens.sum())
        covered = np.zeros(total + 1, dtype=np.int32)
        np.add.at(covered, self.gold_start, 1)
        np.add.at(covered, self.gold_end + 1, -1)
        covered = np.cumsum(covered[:-1]) > 0
        # The next uncovered position at or after each position.
        free_at = np.where(covered, total, np.arange(total))
        next_free = np.minimum.accumulate(free_at[::-1])[::-1]
        # Sentence lengths: at least 8 tokens, gamma-spread, scaled to fill each text.
        sentences = np.clip(np.rint(self.text_tokens / SENTENCE_TOKENS + rng.normal(0, 1.5, len(self.names))), 4, 30)
        sentences = sentences.astype(np.int64)
        lengths = 8 + rng.gamma(2.0, (SENTENCE_TOKENS - 8) / 2, sentences.sum())
        text_of = np.repeat(np.arange(len(self.names)), sentences)
        fill = self.text_tokens / np.bincount(text_of, weights=lengths)
        ends = self.text_start[text_of] + np.floor(grouped_cumsum(lengths, sentences) * fill[text_of]).astype(np.int64)
        ends = np.minimum(ends, (self.text_start + self.text_tokens)[text_of]) - 1
        last = np.cumsum(sentences) - 1
        ends[last] = (self.text_start + self.text_tokens - 1)[text_of[last]]  # each text ends with a '.'
        self.dots = np.unique(next_free[ends])
        self.is_dot = np.zeros(total, dtype=bool)
        self.is_dot[self.dots] = True
        # Per token: its sentence (a global number), the sentence's first token, the ids of both schemes.
        sentence = np.cumsum(self.is_dot) - self.is_dot
        sentence_start = np.concatenate([[0], self.dots[:-1] + 1])
        self.token_text = np.repeat(np.arange(len(self.names)), self.text_tokens)
        self.sentence = sentence
        self.sentence_first = sentence_start[sentence]  # first token of the token's sentence
        self.sentence_dot = self.dots[sentence]  # the '.' that ends it
        self.doc_token = np.arange(total) - self.text_start[self.token_text] + 1
        self.sentence_id = sentence - sentence[self.text_start][self.token_text] + 1
        self.sent_token = np.arange(total) - self.sentence_first + 1

    def choose_tokens(self, rng: np.random.Generator) -> None:
        """Names inside gold NAME spans, numbers inside NUMBER spans, '.' at sentence ends, else mostly words."""
        general_words = [word for word, _ in GENERAL]
        weights = np.array([weight for _, weight in GENERAL], dtype=float)
        vocabulary = [".", *general_words, *NUMBERS, *NAMES]
        first_number, first_name = 1 + len(general_words), 1 + len(general_words) + len(NUMBERS)
        total = len(self.is_dot)
        ids = 1 + rng.choice(len(general_words), size=total, p=weights / weights.sum())
        # Outside the spans too, a share of the tokens are numbers (12 %) and names (7 %), as in the real texts.
        kind = rng.random(total)
        ids = np.where(kind < 0.12, first_number + rng.integers(0, len(NUMBERS), total), ids)
        ids = np.where(kind > 0.93, first_name + rng.integers(0, len(NAMES), total), ids)
        span_tokens = np.repeat(self.gold_start, self.gold_length) + grouped_arange(self.gold_length)
        span_category = np.repeat(self.gold_category, self.gold_length)
        for category, first, count in (("NAME", first_name, len(NAMES)), ("NUMBER", first_number, len(NUMBERS))):
            where = span_tokens[span_category == CATEGORIES.index(category)]
            ids[where] = first + rng.integers(0, count, len(where))
        ids[self.is_dot] = 0
        self.words = np.array(vocabulary, dtype=object)[ids].tolist()

    def text(self, number: int) -> str:
        start = self.text_start[number]
        return " ".join(self.words[start : start + self.text_tokens[number]])

    def list_rows(self, starts, ends, categories, scheme, corrections=None, comments=None) -> list[str]:
        """CSV rows of a mistake list (global 0-based start and end positions, sorted)."""
        rows = []
        texts, words, names = self.token_text[starts].tolist(), self.words, self.names
        sentence_ids, sent_starts = self.sentence_id[starts].tolist(), self.sent_token[starts].tolist()
        sent_ends, doc_starts = self.sent_token[ends].tolist(), self.doc_token[starts].tolist()
        doc_ends = self.doc_token[ends].tolist()
        corrections = corrections or [""] * len(texts)
        comments = comments or [""] * len(texts)
        for number, (text, start, end, category) in enumerate(zip(texts, starts.tolist(), ends.tolist(), categories)):
            sent = (sentence_ids[number], sent_starts[number], sent_ends[number]) if scheme != "doc" else ("", "", "")
            doc = (doc_starts[number], doc_ends[number]) if scheme != "sent" else ("", "")
            rows.append(
                f"{names[text]}.txt,{sent[0]},{number + 1},{cell(' '.join(words[start : end + 1]))},{sent[1]},"
                f"{sent[2]},{doc[0]},{doc[1]},{CATEGORIES[category]},{corrections[number]},{comments[number]}\n"
            )
        return rows

    def gold_rows(self, rng: np.random.Generator) -> list[str]:
        count = len(self.gold_start)
        by_category = {"NAME": NAMES, "NUMBER": NUMBERS, "WORD": [word for word, _ in GENERAL if word.isalpha()]}
        corrected = rng.random(count) < CORRECTION_SHARE
        picks = rng.integers(0, 1 << 30, count)
        corrections = [
            cell(by_category[CATEGORIES[c]][pick % len(by_category[CATEGORIES[c]])])
            if fix and CATEGORIES[c] in by_category
            else ""
            for c, fix, pick in zip(self.gold_category.tolist(), corrected.tolist(), picks.tolist())
        ]
        commented = rng.random(count) < COMMENT_SHARE
        comments = [
            cell(COMMENTS[pick % len(COMMENTS)]) if note else ""
            for note, pick in zip(commented.tolist(), picks.tolist())
        ]
        return self.list_rows(
            self.gold_start, self.gold_end, self.gold_category.tolist(), "both", corrections, comments
        )


def submission_spans(corpus: Corpus, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start, end (global positions) and category of the spans of one submission, sorted, never overlapping."""
    gold_start, gold_end, gold_category = corpus.gold_start, corpus.gold_end, corpus.gold_category
    count = len(gold_start)
    first, dot = corpus.sentence_first[gold_start], corpus.sentence_dot[gold_start]
    # This submission's skill: how much it misses, how it draws spans, how often its category is right.
    missed = rng.random(count) < rng.uniform(0.1, 0.45)
    weights = np.array(ACTION_WEIGHTS) * rng.uniform(0.5, 1.5, len(ACTIONS))
    action = rng.choice(len(ACTIONS), size=count, p=weights / weights.sum())
    # Bridges and merges need a next gold mistake in the same sentence, at most 4 tokens away; narrower spans
    # and splits need two tokens. Otherwise the span is exact.
    next_start = np.append(gold_start[1:], -1)
    next_end = np.append(gold_end[1:], -1)
    pairable = (
        (next_start > gold_end)
        & (next_start - gold_end <= 5)
        & (corpus.sentence[np.maximum(next_start, 0)] == corpus.sentence[gold_start])
    )
    long = gold_end > gold_start
    exact = ACTIONS.index("exact")
    action[np.isin(action, [ACTIONS.index("bridge"), ACTIONS.index("merge")]) & ~pairable] = exact
    action[np.isin(action, [ACTIONS.index("narrower"), ACTIONS.index("split")]) & ~long] = exact
    action[missed] = -1

    def pick(name: str):
        return action == ACTIONS.index(name)

    starts, ends, sources = [], [], []

    def add(where, start, end):
        starts.append(np.clip(start, first[where], dot[where] - 1))
        ends.append(np.clip(end, first[where], dot[where] - 1))
        sources.append(np.flatnonzero(where))

    add(pick("exact"), gold_start[pick("exact")], gold_end[pick("exact")])
    wider = pick("wider")
    left, right = rng.integers(0, 3, (2, wider.sum()))
    right = np.where((left == 0) & (right == 0), 1, right)
    add(wider, gold_start[wider] - left, gold_end[wider] + right)
    narrower = pick("narrower")
    from_left = (rng.random(narrower.sum()) < 0.5).astype(np.int64)
    add(narrower, gold_start[narrower] + from_left, gold_end[narrower] - (1 - from_left))
    shifted = pick("shifted")
    step = rng.choice([-1, 1], shifted.sum())
    add(shifted, gold_start[shifted] + step, gold_end[shifted] + step)
    split = pick("split")
    cut = gold_start[split] + 1 + np.floor(rng.random(split.sum()) * (gold_end[split] - gold_start[split]))
    cut = cut.astype(np.int64)
    add(split, gold_start[split], cut - 1)
    add(split, cut, gold_end[split])
    bridge = pick("bridge")
    add(bridge, gold_end[bridge], next_start[bridge])
    merge = pick("merge")
    add(merge, gold_start[merge], next_end[merge])

    start, end = np.concatenate(starts), np.concatenate(ends)
    category = gold_category[np.concatenate(sources)]
    # False alarms: spans away from every gold mistake, enough to bring the list near the gold list's size.
    target = int(count * rng.uniform(0.85, 1.15))
    wanted = max(target - len(start), count // 20)
    alarm_category, alarm_length = draw_pairs(rng, 3 * wanted)
    alarm_start = rng.integers(0, len(corpus.words), 3 * wanted)
    alarm_end = np.minimum(alarm_start + alarm_length - 1, corpus.sentence_dot[alarm_start] - 1)
    covered = gold_coverage(corpus)
    clear = (~corpus.is_dot[alarm_start]) & (covered[alarm_end + 1] - covered[alarm_start] == 0)
    keep = np.flatnonzero(clear)[:wanted]
    start = np.concatenate([start, alarm_start[keep]])
    end = np.concatenate([end, alarm_end[keep]])
    category = np.concatenate([category, alarm_category[keep]])
    # Categories: right with the submission's accuracy, else another category drawn from the real mix.
    wrong = rng.random(len(category)) > rng.uniform(0.75, 0.95)
    other, _ = draw_pairs(rng, len(category))
    other = np.where(other == category, (other + 1) % len(CATEGORIES), other)
    category = np.where(wrong, other, category)
    # No two spans of a list overlap: keep a span only if it starts after every earlier span has ended.
    order = np.lexsort((end, start))
    start, end, category = start[order], end[order], category[order]
    ended = np.maximum.accumulate(np.concatenate([[-1], end[:-1]]))
    keep = (start > ended) & (start <= end)
    return start[keep], end[keep], category[keep]


def gold_coverage(corpus: Corpus) -> np.ndarray:
    """covered[i] = how many of the tokens before position i are inside a gold span (a prefix sum)."""
    if getattr(corpus, "_coverage", None) is None:
        inside = np.zeros(len(corpus.words) + 1, dtype=np.int64)
        np.add.at(inside, corpus.gold_start, 1)
        np.add.at(inside, corpus.gold_end + 1, -1)
        corpus._coverage = np.concatenate([[0], np.cumsum(np.cumsum(inside[:-1]) > 0)])
    return corpus._coverage


def draw_pairs(rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Categories and span lengths drawn from the real gold list's mix."""
    pairs = np.array(
        [(CATEGORIES.index(c), length, n) for c, lengths in SPAN_LENGTHS.items() for length, n in lengths.items()]
    )
    drawn = rng.choice(len(pairs), size=size, p=pairs[:, 2] / pairs[:, 2].sum())
    return pairs[drawn, 0], pairs[drawn, 1]


def write_games(corpus: Corpus, rng: np.random.Generator, folder: Path, split: str) -> None:
    """games.csv and shared_task.jsonl: one game per text, teams, a date, and a box score."""
    games = len(corpus.names)
    home = rng.integers(0, len(TEAMS), games)
    teams = np.stack([home, (home + rng.integers(1, len(TEAMS), games)) % len(TEAMS)], axis=1)  # home, visitors
    seasons = rng.integers(2014, 2018, games)
    days = rng.integers(0, 180, games)  # from 25 October
    dates = np.datetime64("2014-10-25") + (seasons - 2014) * 365 + days
    lines = rng.integers(0, 728, games)
    box_scores = BoxScores(rng, teams)
    summary_pool = Corpus(rng, "R", max(4, -(-games * SUMMARY_TOKENS // 330 // 40)), 3).words
    summary_lengths = np.clip(np.rint(rng.normal(SUMMARY_TOKENS, 80, games)), 120, 700).astype(np.int64)
    summary_starts = rng.integers(0, len(summary_pool) - 700, games)
    with (
        open(folder / "games.csv", "w", encoding="utf-8", newline="") as games_csv,
        open(folder / "shared_task.jsonl", "w", encoding="utf-8", newline="") as jsonl,
    ):
        games_csv.write(GAMES_HEADER[split] + "\n")
        for number, text_id in enumerate(corpus.names):
            home_city, home_name, home_abbr = TEAMS[teams[number, 0]]
            vis_city, vis_name, vis_abbr = TEAMS[teams[number, 1]]
            day = dates[number].astype(object)
            season = day.year + (day.month >= 10)
            text = corpus.text(number)
            games_csv.write(
                f"{text_id},{home_name},{vis_name},{lines[number]},{cell(text)},{cell(detokenize(text))},"
                f"{day:%m_%d_%y},https://www.basketball-reference.com/boxscores/{day:%Y%m%d}0{home_abbr}.html,"
                f"https://www.basketball-reference.com/teams/{home_abbr}/{season}_games.html,"
                f"https://www.basketball-reference.com/teams/{vis_abbr}/{season}_games.html,"
                f"https://www.timeanddate.com/calendar/monthly.html?year={day:%Y}&month={day:%m}&country=1\n"
            )
            start = summary_starts[number]
            summary = summary_pool[start : start + summary_lengths[number]]
            cleaned = " ".join(summary)
            home_line, vis_line, box_score = box_scores.game(number)
            record = {
                "home_name": home_name,
                "box_score": box_score,
                "home_city": home_city,
                "vis_name": vis_name,
                "summary": summary,
                "vis_line": vis_line,
                "vis_city": vis_city,
                "day": f"{day:%m_%d_%y}",
                "home_line": home_line,
                "shared_task_text_id": text_id,
                "cleaned_text": cleaned,
                "detokenized_text": detokenize(cleaned),
            }
            jsonl.write(("\n" if number else "") + json.dumps(record))


class BoxScores:
    """Plausible box scores for every game at once: the visitors' players first, then the home team's."""

    def __init__(self, rng: np.random.Generator, teams: np.ndarray):
        games = len(teams)
        self.teams = teams
        sizes = rng.integers(PLAYERS_PER_TEAM[0], PLAYERS_PER_TEAM[1] + 1, (games, 2))  # visitors, home
        self.team_sizes = sizes
        per_team = sizes.ravel()
        players = per_team.sum()
        self.player_offset = np.concatenate([[0], np.cumsum(per_team)])
        slot = grouped_arange(per_team)  # 0-4 start
        starter = slot < 5
        played = starter | (rng.random(players) > DID_NOT_PLAY / 0.6)
        minutes = np.where(starter, rng.normal(32, 5, players), rng.normal(16, 8, players))
        minutes = np.clip(np.rint(minutes), 1, 48).astype(np.int64)
        fga = rng.poisson(minutes * 0.35)
        fgm = rng.binomial(fga, 0.45)
        fg3a = rng.binomial(fga, 0.3)
        fg3m = np.minimum(rng.binomial(fg3a, 0.35), fgm)
        fta = rng.poisson(minutes * 0.08)
        ftm = rng.binomial(fta, 0.75)
        oreb, dreb = rng.poisson(minutes * 0.03), rng.poisson(minutes * 0.12)
        stats = {
            "MIN": minutes, "FGM": fgm, "FGA": fga, "FG_PCT": percent(fgm, fga), "FG3M": fg3m, "FG3A": fg3a,
            "FG3_PCT": percent(fg3m, fg3a), "FTM": ftm, "FTA": fta, "FT_PCT": percent(ftm, fta), "OREB": oreb,
            "DREB": dreb, "REB": oreb + dreb, "AST": rng.poisson(minutes * 0.07), "STL": rng.poisson(minutes * 0.025),
            "BLK": rng.poisson(minutes * 0.015), "TO": rng.poisson(minutes * 0.05),
            "PF": np.minimum(rng.poisson(minutes * 0.06), 6), "PTS": 2 * fgm + fg3m + ftm,
        }  # fmt: skip
        self.stats = {key: np.where(played, values, 0) for key, values in stats.items()}
        # As text: the whole numbers through a lookup table, 'N/A' (the last entry) for those who did not play.
        self.stat_names = list(stats)
        self.values = np.stack([np.where(played, values, -1) for values in stats.values()], axis=1)
        self.as_text = np.array([str(n) for n in range(int(self.values.max()) + 1)] + ["N/A"], dtype=object)
        self.position = [STARTING_POSITIONS[s] if s < 5 else "N/A" for s in slot.tolist()]
        self.first = [FIRST_NAMES[i] for i in rng.integers(0, len(FIRST_NAMES), players).tolist()]
        self.last = [LAST_NAMES[i] for i in rng.integers(0, len(LAST_NAMES), players).tolist()]
        self.wins_losses = rng.integers(0, 60, (games, 2, 2)).tolist()
        self.quarters = rng.dirichlet([8, 8, 8, 8], (games, 2))

    def team_line(self, number: int, side: int, team: int) -> dict:
        players = slice(self.player_offset[2 * number + side], self.player_offset[2 * number + side + 1])
        total = {key: int(values[players].sum()) for key, values in self.stats.items()}
        quarters = np.floor(self.quarters[number, side] * total["PTS"]).astype(int)
        quarters[-1] = total["PTS"] - quarters[:-1].sum()
        city, name, _ = TEAMS[team]
        wins, losses = self.wins_losses[number][side]
        return {
            "TEAM-PTS_QTR2": str(quarters[1]),
            "TEAM-FT_PCT": str(percent(total["FTM"], total["FTA"])),
            "TEAM-PTS_QTR1": str(quarters[0]),
            "TEAM-PTS_QTR4": str(quarters[3]),
            "TEAM-PTS_QTR3": str(quarters[2]),
            "TEAM-CITY": city,
            "TEAM-PTS": str(total["PTS"]),
            "TEAM-AST": str(total["AST"]),
            "TEAM-LOSSES": str(losses),
            "TEAM-NAME": name,
            "TEAM-WINS": str(wins),
            "TEAM-REB": str(total["REB"]),
            "TEAM-TOV": str(total["TO"]),
            "TEAM-FG3_PCT": str(percent(total["FG3M"], total["FG3A"])),
            "TEAM-FG_PCT": str(percent(total["FGM"], total["FGA"])),
        }

    def game(self, number: int) -> tuple[dict, dict, dict]:
        """home_line, vis_line and box_score of one game."""
        home, visitors = self.teams[number]
        first, last = self.player_offset[2 * number], self.player_offset[2 * number + 2]
        indices = [str(i) for i in range(last - first)]
        cities = [TEAMS[visitors][0]] * self.team_sizes[number, 0] + [TEAMS[home][0]] * self.team_sizes[number, 1]
        columns = {
            "FIRST_NAME": self.first[first:last],
            "SECOND_NAME": self.last[first:last],
            "PLAYER_NAME": [f"{a} {b}" for a, b in zip(self.first[first:last], self.last[first:last])],
            "START_POSITION": self.position[first:last],
            "TEAM_CITY": cities,
            **{key: self.as_text[self.values[first:last, k]].tolist() for k, key in enumerate(self.stat_names)},
        }
        box_score = {key: dict(zip(indices, values)) for key, values in columns.items()}
        return self.team_line(number, 1, home), self.team_line(number, 0, visitors), box_score


def percent(made, attempted):
    """A shooting percentage as a whole number, 0 without attempts."""
    return np.rint(100 * np.asarray(made) / np.maximum(attempted, 1)).astype(np.int64)


def write_split(folder: Path, corpus: Corpus, rng: np.random.Generator, split: str) -> None:
    (folder / "texts").mkdir(parents=True, exist_ok=True)
    for number, name in enumerate(corpus.names):
        with open(folder / "texts" / f"{name}.txt", "w", encoding="utf-8") as text:
            text.write(corpus.text(number))
    with open(folder / "gsml.csv", "w", encoding="utf-8") as gold:
        gold.write(LIST_HEADER + "\n")
        gold.writelines(corpus.gold_rows(rng))
    write_games(corpus, rng, folder, split)


def generate(out: Path, scale: int, submissions: int, seed: int = 0, test_split: bool = False) -> None:
    """Write the data folder (see the module's docstring)."""
    width = max(3, len(str(60 * scale)))
    corpus = Corpus(np.random.default_rng([seed, 1]), "S", 60 * scale, width)
    write_split(out, corpus, np.random.default_rng([seed, 2]), "train")
    if test_split:
        test = Corpus(np.random.default_rng([seed, 3]), "T", 30 * scale, width)
        write_split(out / "test_set", test, np.random.default_rng([seed, 4]), "test")
    folder = out / "submissions"
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(1, submissions + 1):
        start, end, category = submission_spans(corpus, np.random.default_rng([seed, 100 + number]))
        scheme = ID_SCHEMES[(number - 1) % len(ID_SCHEMES)]
        with open(folder / f"sub{number:02}.csv", "w", encoding="utf-8") as submission:
            submission.write(LIST_HEADER + "\n")
            submission.writelines(corpus.list_rows(start, end, category.tolist(), scheme))


# --- measuring a data folder: where the constants above come from, and a check of a generated folder ---


def measure(folder: Path) -> dict:
    """Shape figures of a data folder's train split: texts, the gold list, and each submission against it."""
    tokens, sentences = [], []
    for path in sorted((folder / "texts").glob("*.txt")):
        words = path.read_text(encoding="utf-8").split()
        tokens.append(len(words))
        sentences.append(words.count("."))
    gold = read_list(folder / "gsml.csv")
    lengths: dict[str, Counter] = {category: Counter() for category in CATEGORIES}
    for _, start, end, category in gold:
        lengths[category][end - start + 1] += 1
    figures = {
        "texts": len(tokens),
        "tokens_per_text": [
            round(statistics.mean(tokens), 1),
            round(statistics.pstdev(tokens), 1),
            min(tokens),
            max(tokens),
        ],
        "sentences_per_text": round(statistics.mean(sentences), 2),
        "gold_mistakes": len(gold),
        "categories": dict(Counter(category for *_, category in gold)),
        "span_lengths": {category: dict(sorted(counts.items())) for category, counts in lengths.items()},
        "gold_per_text": sorted(Counter(text_id for text_id, *_ in gold).values()),
        "submissions": {},
    }
    gold_by_text: dict[str, list] = {}
    for row in gold:
        gold_by_text.setdefault(row[0], []).append(row)
    for path in sorted((folder / "submissions").glob("*.csv")) if (folder / "submissions").is_dir() else []:
        figures["submissions"][path.stem] = compare(gold_by_text, read_list(path))
    return figures


def read_list(path: Path) -> list[tuple[str, int, int, str]]:
    """(text id, doc start, doc end, category) of each row of a mistake list with document ids."""
    with open(path, encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    if rows and not rows[0]["DOC_TOKEN_START"]:
        return []  # sentence ids only: not compared here
    return [(r["TEXT_ID"], int(r["DOC_TOKEN_START"]), int(r["DOC_TOKEN_END"]), r["TYPE"]) for r in rows]


def compare(gold_by_text: dict[str, list], submitted: list) -> dict:
    """How a submission's spans relate to the gold spans they intersect."""
    kinds = Counter()
    for text_id, start, end, category in submitted:
        hits = [g for g in gold_by_text.get(text_id, []) if g[1] <= end and start <= g[2]]
        if not hits:
            kinds["false alarm"] += 1
        elif len(hits) > 1:
            kinds["touches two gold"] += 1
        elif (hits[0][1], hits[0][2]) == (start, end):
            kinds["exact" if hits[0][3] == category else "exact, other category"] += 1
        else:
            kinds["partial"] += 1
    return {"rows": len(submitted), **dict(sorted(kinds.items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="K: K×60 texts (the real train split has 60)")
    parser.add_argument("--submissions", type=int, default=10)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--test-split", action="store_true", help="also write test_set/ with K×30 texts")
    parser.add_argument("--measure", type=Path, metavar="DIR", help="print the shape figures of a data folder")
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure), indent=1))
    elif args.out is None:
        parser.error("--out is required")
    else:
        generate(args.out, args.scale, args.submissions, args.seed, args.test_split)


if __name__ == "__main__":
    main()
