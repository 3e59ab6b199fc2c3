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
    UNIQUE (kind, name, split)
);

COMMENT ON TABLE annotation_sets IS 'One row per loaded mistake list: the gold list of a split, or a submission';
COMMENT ON COLUMN annotation_sets.set_id IS 'Key of the list (mistakes.set_id)';
COMMENT ON COLUMN annotation_sets.kind IS 'gold or submission';
COMMENT ON COLUMN annotation_sets.name IS 'gold for a gold list; for a submission, its name (the file stem)';
COMMENT ON COLUMN annotation_sets.split IS 'train or test: the split of the texts the list names';
COMMENT ON COLUMN annotation_sets.source_file IS 'The file it was loaded from';
COMMENT ON COLUMN annotation_sets.sha256 IS 'SHA-256 of the file''s bytes';
COMMENT ON COLUMN annotation_sets.row_count IS 'Number of mistakes (data rows) in the file';
COMMENT ON COLUMN annotation_sets.loaded_at IS 'When the list was loaded';

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
    next_start       INTEGER
);

COMMENT ON TABLE mistakes IS 'One row per listed mistake of every loaded list, with both token id schemes filled in';
COMMENT ON COLUMN mistakes.mistake_id IS 'Unique id of the row';
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

CREATE TABLE rejections (
    submission VARCHAR NOT NULL,
    sha256     VARCHAR NOT NULL,
    file       VARCHAR NOT NULL,
    line       INTEGER,
    message    VARCHAR NOT NULL
);

COMMENT ON TABLE rejections IS 'One row per problem of each refused submission file (a refused file loads nothing)';
COMMENT ON COLUMN rejections.submission IS 'The submission''s name (its file stem)';
COMMENT ON COLUMN rejections.sha256 IS 'SHA-256 of the refused file''s bytes';
COMMENT ON COLUMN rejections.file IS 'The refused file';
COMMENT ON COLUMN rejections.line IS 'Line of the problem in the file (the header is line 1); NULL for the whole file';
COMMENT ON COLUMN rejections.message IS 'What is wrong';
