-- Metrics that give one number per text (an imported file of scores, or a built-in such as BLEU), and their scores.
CREATE TABLE metrics (
    corpus           VARCHAR NOT NULL,
    split            VARCHAR NOT NULL,
    metric           VARCHAR NOT NULL,
    kind             VARCHAR NOT NULL CHECK (kind IN ('import', 'builtin')),
    higher_is_better BOOLEAN NOT NULL,
    description      VARCHAR,
    source_file      VARCHAR,
    folder_file      VARCHAR,
    sha256           VARCHAR,
    loaded_at        TIMESTAMP NOT NULL DEFAULT current_localtimestamp(),
    PRIMARY KEY (corpus, split, metric)
);

COMMENT ON TABLE metrics IS 'One row per metric of a split of a corpus that scores each text with one number: imported (accuracy-db import scores, or a file of build/refresh --scores) or built in (bleu, chrf, length); a submission is a metric too (metric_scores)';
COMMENT ON COLUMN metrics.corpus IS 'The corpus of the texts scored (corpora.corpus)';
COMMENT ON COLUMN metrics.split IS 'The split of the texts scored: every text of it has one score';
COMMENT ON COLUMN metrics.metric IS 'The metric''s name: the header of its column in the file (or the file''s stem or --name, for a file of one column text_id,score); bleu, chrf or length for a built-in';
COMMENT ON COLUMN metrics.kind IS 'import (read from a file of scores) or builtin (computed by build)';
COMMENT ON COLUMN metrics.higher_is_better IS 'Whether a higher score means a better text (true for BLEU, false for a count of mistakes or the length)';
COMMENT ON COLUMN metrics.description IS 'What the metric is (a sidecar''s description, or the built-in''s definition)';
COMMENT ON COLUMN metrics.source_file IS 'The file the scores were read from (NULL for a built-in)';
COMMENT ON COLUMN metrics.folder_file IS 'The file''s name in the scores folder of build or refresh --scores (source_files.name); NULL for a metric of import scores or a built-in';
COMMENT ON COLUMN metrics.sha256 IS 'SHA-256 of the file''s bytes (NULL for a built-in)';
COMMENT ON COLUMN metrics.loaded_at IS 'When the scores were loaded or computed';

CREATE TABLE text_scores (
    corpus  VARCHAR NOT NULL,
    metric  VARCHAR NOT NULL,
    text_id VARCHAR NOT NULL,
    split   VARCHAR NOT NULL,
    score   DOUBLE NOT NULL CHECK (score > '-Infinity'::DOUBLE AND score < 'Infinity'::DOUBLE), -- finite (NaN is above all)
    PRIMARY KEY (corpus, metric, text_id)
);

COMMENT ON TABLE text_scores IS 'One row per text a metric of metrics scores: its one number';
COMMENT ON COLUMN text_scores.corpus IS 'The corpus (metrics.corpus)';
COMMENT ON COLUMN text_scores.metric IS 'The metric (metrics.metric)';
COMMENT ON COLUMN text_scores.text_id IS 'The text (texts.text_id)';
COMMENT ON COLUMN text_scores.split IS 'The text''s split (metrics.split)';
COMMENT ON COLUMN text_scores.score IS 'The metric''s score of the text, a finite number';

CREATE TABLE score_rejections (
    folder_file VARCHAR NOT NULL,
    file    VARCHAR NOT NULL,
    sha256  VARCHAR NOT NULL,
    line    INTEGER,
    message VARCHAR NOT NULL,
    name_taken BOOLEAN NOT NULL DEFAULT false
);

COMMENT ON TABLE score_rejections IS 'One row per refused file of the scores folder (build or refresh --scores): a refused file loads nothing';
COMMENT ON COLUMN score_rejections.folder_file IS 'The refused scores file''s name in the scores folder (source_files.name)';
COMMENT ON COLUMN score_rejections.file IS 'The refused file (its scores file, or its sidecar)';
COMMENT ON COLUMN score_rejections.sha256 IS 'SHA-256 of the scores file''s bytes (empty when it could not be read)';
COMMENT ON COLUMN score_rejections.line IS 'Line of the problem in the file (the first line is 1); NULL for the whole file';
COMMENT ON COLUMN score_rejections.message IS 'What is wrong';
COMMENT ON COLUMN score_rejections.name_taken IS 'Whether the file was refused because a submission or another metric holds one of its metrics'' names: refresh loads it again once the name is free';
