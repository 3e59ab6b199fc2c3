-- Mistake lists: the gold-standard list of each split and the submissions scored against it.
CREATE SEQUENCE annotation_set_ids START 1;
CREATE SEQUENCE mistake_ids START 1;

CREATE TABLE annotation_sets (
    set_id      INTEGER PRIMARY KEY DEFAULT nextval('annotation_set_ids'),
    kind        VARCHAR NOT NULL CHECK (kind IN ('gold', 'submission')),
    name        VARCHAR NOT NULL,
    split       VARCHAR NOT NULL,
    source_file VARCHAR NOT NULL,
    sha256      VARCHAR NOT NULL,
    row_count   INTEGER NOT NULL,
    loaded_at   TIMESTAMP NOT NULL DEFAULT current_localtimestamp(),
    corpus      VARCHAR NOT NULL DEFAULT 'shared-task',
    annotator   VARCHAR,
    covers_split BOOLEAN NOT NULL DEFAULT TRUE,
    content_sha256 VARCHAR,
    UNIQUE (corpus, kind, name, split)
);

COMMENT ON TABLE annotation_sets IS 'One row per loaded mistake list: the gold list of a split, or a submission';
COMMENT ON COLUMN annotation_sets.set_id IS 'Key of the list (mistakes.set_id)';
COMMENT ON COLUMN annotation_sets.kind IS 'gold or submission';
COMMENT ON COLUMN annotation_sets.name IS 'gold for a gold list; for a submission, its name (the file stem; for a factgenie campaign, campaign/annotator)';
COMMENT ON COLUMN annotation_sets.split IS 'The split of the texts the list names (shared task: train or test)';
COMMENT ON COLUMN annotation_sets.source_file IS 'The file it was loaded from (for a factgenie campaign, its folder)';
COMMENT ON COLUMN annotation_sets.sha256 IS 'SHA-256 of the file''s bytes';
COMMENT ON COLUMN annotation_sets.row_count IS 'Number of mistakes (data rows) in the file';
COMMENT ON COLUMN annotation_sets.loaded_at IS 'When the list was loaded';
COMMENT ON COLUMN annotation_sets.corpus IS 'The corpus of the texts the list names (corpora.corpus): a submission is scored against the gold list of its corpus and split';
COMMENT ON COLUMN annotation_sets.annotator IS 'For a list of one human annotator''s own spans (a Mu-SHROOM file''s annotations), the annotator''s name; NULL for any other list';
COMMENT ON COLUMN annotation_sets.covers_split IS 'TRUE when the list covers every text of its split (a text it names nothing in has no mistake); FALSE when it covers only the texts list_coverage names, as an annotator who labelled some of the texts: it is scored on those alone';
COMMENT ON COLUMN annotation_sets.content_sha256 IS 'SHA-256 of what the list''s figures are computed from: its texts (when it covers part of its split), its spans (text, tokens, category, probability) and its character labels, in a canonical order; the signature names a list by it';

CREATE TABLE list_coverage (
    set_id  INTEGER NOT NULL,
    text_id VARCHAR NOT NULL,
    PRIMARY KEY (set_id, text_id)
);

COMMENT ON TABLE list_coverage IS 'One row per text a list covers, for each list that covers part of its split (annotation_sets.covers_split FALSE): the texts its annotator labelled';
COMMENT ON COLUMN list_coverage.set_id IS 'The list (annotation_sets.set_id)';
COMMENT ON COLUMN list_coverage.text_id IS 'A text of its split that it covers (texts.text_id)';

CREATE TABLE mistakes (
    mistake_id       BIGINT NOT NULL DEFAULT nextval('mistake_ids'),
    set_id           INTEGER NOT NULL,
    line_number      INTEGER NOT NULL,
    text_id          VARCHAR NOT NULL,
    annotation_id    VARCHAR,
    tokens           VARCHAR,
    sentence_id      INTEGER NOT NULL,
    sent_token_start INTEGER NOT NULL,
    sent_token_end   INTEGER NOT NULL,
    doc_token_start  INTEGER NOT NULL,
    doc_token_end    INTEGER NOT NULL,
    category         VARCHAR NOT NULL,
    correction       VARCHAR,
    comment          VARCHAR,
    previous_end     INTEGER,
    next_start       INTEGER,
    probability      DOUBLE CHECK (probability IS NULL OR probability BETWEEN 0 AND 1),
    severity         VARCHAR
);

COMMENT ON TABLE mistakes IS 'One row per listed mistake of every loaded list, with both token id schemes filled in';
COMMENT ON COLUMN mistakes.mistake_id IS 'Unique id of the row; the rows of a list read from a file are numbered in the order of their lines, with gaps';
COMMENT ON COLUMN mistakes.set_id IS 'The list it belongs to (annotation_sets.set_id)';
COMMENT ON COLUMN mistakes.line_number IS 'Line of the row in its file (the header is line 1)';
COMMENT ON COLUMN mistakes.text_id IS 'The text (texts.text_id), without the .txt suffix';
COMMENT ON COLUMN mistakes.annotation_id IS 'ANNOTATION_ID as given';
COMMENT ON COLUMN mistakes.tokens IS 'TOKENS: the marked tokens joined by spaces';
COMMENT ON COLUMN mistakes.sentence_id IS 'Sentence of the first marked token (given or derived from tokens)';
COMMENT ON COLUMN mistakes.sent_token_start IS 'First marked token, counted in its sentence';
COMMENT ON COLUMN mistakes.sent_token_end IS 'Last marked token, counted in its sentence (inclusive)';
COMMENT ON COLUMN mistakes.doc_token_start IS 'First marked token, counted in the document';
COMMENT ON COLUMN mistakes.doc_token_end IS 'Last marked token, counted in the document (inclusive)';
COMMENT ON COLUMN mistakes.category IS 'NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE or OTHER (categories.category)';
COMMENT ON COLUMN mistakes.correction IS 'CORRECTION as given';
COMMENT ON COLUMN mistakes.comment IS 'COMMENT as given';
COMMENT ON COLUMN mistakes.previous_end IS 'Last token of the same list''s previous mistake in the text (0 when it is the first): spans of one list never overlap, so nothing of the list lies between the two';
COMMENT ON COLUMN mistakes.next_start IS 'First token of the same list''s next mistake in the text (the text''s token count + 1 when it is the last)';
COMMENT ON COLUMN mistakes.severity IS 'How grave the mistake is, as its list gave it (an MQM file: Major, Minor, Critical or Neutral); NULL for a list without severities (the shared task''s, every other format''s)';
COMMENT ON COLUMN mistakes.probability IS 'How likely the span is a mistake, from 0 to 1, as its list gave it (a span list''s probability or prob); NULL for a hard span, which counts as 1';

CREATE TABLE rejections (
    submission VARCHAR NOT NULL,
    sha256     VARCHAR NOT NULL,
    file       VARCHAR NOT NULL,
    line       INTEGER,
    message    VARCHAR NOT NULL,
    name_taken BOOLEAN NOT NULL DEFAULT false
);

COMMENT ON TABLE rejections IS 'One row per problem of each refused submission file (a refused file loads nothing)';
COMMENT ON COLUMN rejections.submission IS 'The submission''s name (its file stem)';
COMMENT ON COLUMN rejections.sha256 IS 'SHA-256 of the refused file''s bytes';
COMMENT ON COLUMN rejections.file IS 'The refused file';
COMMENT ON COLUMN rejections.line IS 'Line of the problem in the file (the header is line 1); NULL for the whole file';
COMMENT ON COLUMN rejections.message IS 'What is wrong';
COMMENT ON COLUMN rejections.name_taken IS 'Whether the file was refused because an imported metric of the corpus holds its name: refresh loads it again once the name is free';

CREATE TABLE offset_adjustments (
    set_id          INTEGER NOT NULL,
    file            VARCHAR NOT NULL,
    line_number     INTEGER NOT NULL,
    text_id         VARCHAR NOT NULL,
    adjustment      VARCHAR NOT NULL CHECK (adjustment IN ('widened', 'trimmed', 'relocated')),
    given_start     INTEGER NOT NULL,
    given_text      VARCHAR NOT NULL,
    char_start      INTEGER NOT NULL,
    char_end        INTEGER NOT NULL,
    doc_token_start INTEGER NOT NULL,
    doc_token_end   INTEGER NOT NULL
);

COMMENT ON TABLE offset_adjustments IS 'One row per character span that did not map to whole tokens as given: the audit of every span a loader moved or widened';
COMMENT ON COLUMN offset_adjustments.set_id IS 'The list the span belongs to (annotation_sets.set_id)';
COMMENT ON COLUMN offset_adjustments.file IS 'The file the span was read from';
COMMENT ON COLUMN offset_adjustments.line_number IS 'Line of the span''s record in that file (the first line is 1)';
COMMENT ON COLUMN offset_adjustments.text_id IS 'The text (texts.text_id)';
COMMENT ON COLUMN offset_adjustments.adjustment IS 'widened (an edge fell inside a token: the span takes the whole token), trimmed (whitespace at an edge, in no token, left out) or relocated (the text at the given offset differed; it occurs exactly once in the text, there)';
COMMENT ON COLUMN offset_adjustments.given_start IS 'The character offset the span gave, from 0';
COMMENT ON COLUMN offset_adjustments.given_text IS 'The characters the span gave';
COMMENT ON COLUMN offset_adjustments.char_start IS 'Offset of the first character of the tokens taken';
COMMENT ON COLUMN offset_adjustments.char_end IS 'Offset just past the last character of the tokens taken';
COMMENT ON COLUMN offset_adjustments.doc_token_start IS 'First token taken, counted in the document from 1';
COMMENT ON COLUMN offset_adjustments.doc_token_end IS 'Last token taken (inclusive)';

CREATE TABLE scheme_refusals (
    set_id  INTEGER NOT NULL,
    scheme  VARCHAR NOT NULL,
    message VARCHAR NOT NULL
);

COMMENT ON TABLE scheme_refusals IS 'One row per loaded list a matching scheme will not score (the list stays loaded; evaluations leaves it out)';
COMMENT ON COLUMN scheme_refusals.set_id IS 'The list (annotation_sets.set_id)';
COMMENT ON COLUMN scheme_refusals.scheme IS 'The scheme that refuses it: shared-task (one-to-one matching of spans that never overlap within a list)';
COMMENT ON COLUMN scheme_refusals.message IS 'Why, naming the spans (for overlapping spans: the first pairs, by line and offsets)';

-- The probability at or above which a span with one is scored (queries/staging/thresholded_mistakes.sql): one row.
-- A command given another threshold shadows it with a temporary table of its own (database.rescore_at).
CREATE TABLE scoring_threshold (
    threshold DOUBLE NOT NULL CHECK (threshold BETWEEN 0 AND 1)
);
INSERT INTO scoring_threshold VALUES (0.5);

COMMENT ON TABLE scoring_threshold IS 'One row: the probability at or above which a span with one is scored by the match schemes (the mushroom scheme reads the probabilities themselves)';
COMMENT ON COLUMN scoring_threshold.threshold IS 'The threshold, from 0 to 1 (0.5: the Mu-SHROOM rule for hard labels, which takes p > 0.5 as a mistake)';
