-- Machine translation rated as Google's MQM files rate it (etl/mqm_files.py): which system generated each text, the
-- items each rater rated, every error as rated (in the target, in the source, or spanless), and the weights that
-- turn errors into a score (queries/marts/mqm_segments.sql).
CREATE TABLE text_systems (
    text_id VARCHAR PRIMARY KEY,
    system  VARCHAR NOT NULL,
    human   BOOLEAN NOT NULL,
    doc     VARCHAR NOT NULL,
    seg_id  VARCHAR NOT NULL
);

COMMENT ON TABLE text_systems IS 'One row per text of an imported corpus whose generating system is known (an MQM file: every target); the shared task''s are in nlg_systems';
COMMENT ON COLUMN text_systems.text_id IS 'The text (texts.text_id)';
COMMENT ON COLUMN text_systems.system IS 'The system that generated it, as the file names it (MQM: the system column)';
COMMENT ON COLUMN text_systems.human IS 'Whether the system is a human reference (ref, ref-A, refB, Human-B …, or the systems import mqm --human names)';
COMMENT ON COLUMN text_systems.doc IS 'The document of the input it translates (MQM: the doc column)';
COMMENT ON COLUMN text_systems.seg_id IS 'The input segment it translates, as the file numbers it (MQM: the seg_id column): the texts of one (doc, seg_id) share their input (texts.source_data)';

CREATE TABLE mqm_ratings (
    set_id      INTEGER NOT NULL,
    text_id     VARCHAR NOT NULL,
    rater       VARCHAR NOT NULL,
    line_number INTEGER NOT NULL,
    PRIMARY KEY (set_id, text_id, rater)
);

COMMENT ON TABLE mqm_ratings IS 'One row per text a rater rated in a list read from an MQM file, with or without errors (an item without one has a No-error row)';
COMMENT ON COLUMN mqm_ratings.set_id IS 'The list (annotation_sets.set_id)';
COMMENT ON COLUMN mqm_ratings.text_id IS 'The text rated (texts.text_id)';
COMMENT ON COLUMN mqm_ratings.rater IS 'The rater, as the file names them (MQM: the rater column)';
COMMENT ON COLUMN mqm_ratings.line_number IS 'The first line of the file rating the text by this rater (the header is line 1)';

CREATE TABLE mqm_errors (
    set_id      INTEGER NOT NULL,
    text_id     VARCHAR NOT NULL,
    rater       VARCHAR NOT NULL,
    line_number INTEGER NOT NULL,
    error_index INTEGER NOT NULL,
    category    VARCHAR NOT NULL,
    severity    VARCHAR NOT NULL,
    side        VARCHAR NOT NULL CHECK (side IN ('target', 'source', 'none')),
    char_start  INTEGER,
    char_end    INTEGER,
    mistake_id  BIGINT,
    PRIMARY KEY (set_id, line_number, error_index),
    CHECK ((side = 'none') = (char_start IS NULL) AND (char_start IS NULL) = (char_end IS NULL)),
    CHECK (char_start IS NULL OR 0 <= char_start AND char_start <= char_end)
);

COMMENT ON TABLE mqm_errors IS 'One row per error of a list read from an MQM file, wherever its span lies: every one counts in the MQM score; those in the target are also spans of the list (mistakes)';
COMMENT ON COLUMN mqm_errors.set_id IS 'The list (annotation_sets.set_id)';
COMMENT ON COLUMN mqm_errors.text_id IS 'The text rated (texts.text_id)';
COMMENT ON COLUMN mqm_errors.rater IS 'The rater who marked it (mqm_ratings.rater)';
COMMENT ON COLUMN mqm_errors.line_number IS 'Its line in the file (the header is line 1)';
COMMENT ON COLUMN mqm_errors.error_index IS 'Its place among the errors of its line, from 0: a row of an MQM TSV has one error, a row of a WMT25 task-2 TSV or a line of predicted spans several';
COMMENT ON COLUMN mqm_errors.category IS 'The category as given, its levels joined by / (Accuracy/Mistranslation; Non-translation!): categories.category';
COMMENT ON COLUMN mqm_errors.severity IS 'The severity as given: Major, Minor, Critical or Neutral';
COMMENT ON COLUMN mqm_errors.side IS 'Where the <v>…</v> markers lay: target (a span of the text), source (a span of the input: an omission, a source error) or none (no marker: the whole segment, as a Non-translation)';
COMMENT ON COLUMN mqm_errors.char_start IS 'Offset of the span''s first character, from 0, in the text (target) or in the input (source), both without markers; NULL for side none';
COMMENT ON COLUMN mqm_errors.char_end IS 'Offset just past the span''s last character (a marked empty span has char_start = char_end)';
COMMENT ON COLUMN mqm_errors.mistake_id IS 'The span it became (mistakes.mistake_id): NULL for an error in the source or with no span, or whose marked characters are only white space';

-- The weights of the errors (queries/intermediate/mqm_weighted_errors.sql): Google's by default. A command given
-- other weights (accuracy-db systems --weights) shadows the table with a temporary one on its own connection.
CREATE TABLE mqm_weights (
    severity VARCHAR NOT NULL,
    category VARCHAR NOT NULL,
    weight   DOUBLE NOT NULL,
    PRIMARY KEY (severity, category)
);

INSERT INTO mqm_weights VALUES
    ('Major', '', 5),
    ('Minor', '', 1),
    ('Neutral', '', 0),
    ('Critical', '', 25),
    ('Major', 'Non-translation!', 25),
    ('Major', 'Non-translation', 25),
    ('Minor', 'Fluency/Punctuation', 0.1);

COMMENT ON TABLE mqm_weights IS 'One row per weighting rule of MQM errors (Google''s: Major 5, Minor 1, Neutral 0, Critical 25, Major Non-translation 25, Minor Fluency/Punctuation 0.1); an error takes the weight of the rule of its severity (or *) whose category is the longest prefix of its own, 0 when none applies';
COMMENT ON COLUMN mqm_weights.severity IS 'The severity the rule applies to, compared without case; * for any';
COMMENT ON COLUMN mqm_weights.category IS 'The category the rule applies to, compared without case, with its sub-categories (Fluency applies to Fluency/Punctuation); empty for any';
COMMENT ON COLUMN mqm_weights.weight IS 'What one such error adds to its rater''s score of the text';

-- The credit the esa scheme gives a character's error counted at the wrong severity (queries/stats/
-- esa_text_statistics.sql): one row. A command given another (--partial-credit) shadows it with a temporary table of
-- its own (database.credited).
CREATE TABLE esa_partial_credit (
    credit DOUBLE NOT NULL CHECK (credit BETWEEN 0 AND 1)
);
INSERT INTO esa_partial_credit VALUES (0.5);

COMMENT ON TABLE esa_partial_credit IS 'One row: the credit the esa scheme gives an error counted at the wrong severity (scoring_esa.py''s partial_credit)';
COMMENT ON COLUMN esa_partial_credit.credit IS 'The credit, from 0 to 1 (0.5: WMT25''s error-span task)';
