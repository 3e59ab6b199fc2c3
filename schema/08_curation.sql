-- The curated annotation of the texts (optional input: curation/<TEXT>…/CURATION_USER.tsv, WebAnno TSV 3.2 exports
-- of the shared task's curation, one per text), with how far the three annotators agreed on each mistake.
CREATE TABLE curation_exports (
    text_id     VARCHAR PRIMARY KEY,
    source_file VARCHAR NOT NULL,
    token_count INTEGER NOT NULL
);

COMMENT ON TABLE curation_exports IS 'One row per loaded curation export (curation/<TEXT>…/CURATION_USER.tsv): the texts whose curation is known, with or without mistakes';
COMMENT ON COLUMN curation_exports.text_id IS 'The text (texts.text_id), from the name of the export''s folder (S001_01_To_60.txt is S001)';
COMMENT ON COLUMN curation_exports.source_file IS 'The file it was loaded from';
COMMENT ON COLUMN curation_exports.token_count IS 'Number of token lines: always the text''s token count (the loader refuses another)';

CREATE TABLE curated_mistakes (
    text_id                 VARCHAR NOT NULL,
    doc_token_start         INTEGER NOT NULL,
    doc_token_end           INTEGER NOT NULL,
    line_number             INTEGER NOT NULL,
    category                VARCHAR NOT NULL,
    corrected_category      VARCHAR,
    correction              VARCHAR,
    comment                 VARCHAR,
    problem                 VARCHAR,
    found_by                INTEGER NOT NULL CHECK (found_by BETWEEN 0 AND 3),
    spans_match             INTEGER CHECK (spans_match BETWEEN 0 AND 3),
    types_match             INTEGER CHECK (types_match BETWEEN 0 AND 3),
    corrected_types         INTEGER CHECK (corrected_types BETWEEN 0 AND 3),
    correction_disagreement BOOLEAN,
    PRIMARY KEY (text_id, doc_token_start)
);

COMMENT ON TABLE curated_mistakes IS 'One row per mistake of a curation export (a span of the webanno.custom.Errors layer), with the annotators'' agreement on it';
COMMENT ON COLUMN curated_mistakes.text_id IS 'The text (curation_exports.text_id)';
COMMENT ON COLUMN curated_mistakes.doc_token_start IS 'First token of the span, counted in the document from 1 (the export''s token lines in order)';
COMMENT ON COLUMN curated_mistakes.doc_token_end IS 'Last token of the span, counted in the document (inclusive)';
COMMENT ON COLUMN curated_mistakes.line_number IS 'Line of the span''s first token in the export (the first line is 1)';
COMMENT ON COLUMN curated_mistakes.category IS 'A_Type without its number (1_NAME is NAME): the category the annotators gave';
COMMENT ON COLUMN curated_mistakes.corrected_category IS 'J_Corrected_Type without its number: the category the curator chose instead of A_Type (NULL for *: A_Type stands)';
COMMENT ON COLUMN curated_mistakes.correction IS 'B_Correction: the correct value (NULL for *)';
COMMENT ON COLUMN curated_mistakes.comment IS 'C_Comment (NULL for *)';
COMMENT ON COLUMN curated_mistakes.problem IS 'G_Problem: the curator''s note on a disagreement (NULL for *)';
COMMENT ON COLUMN curated_mistakes.found_by IS 'H_FOUND_ERR: how many of the three annotators marked the mistake';
COMMENT ON COLUMN curated_mistakes.spans_match IS 'I_Spans_Match: how many annotators marked exactly this span (NULL for *)';
COMMENT ON COLUMN curated_mistakes.types_match IS 'J_Types_Match: how many annotators gave the mistake the same category (NULL for *)';
COMMENT ON COLUMN curated_mistakes.corrected_types IS 'G_Corrected_Types as exported, a number of annotators from 0 to 3 (the export does not define it further; NULL for *)';
COMMENT ON COLUMN curated_mistakes.correction_disagreement IS 'I_Correction_Disagreement: whether the annotators'' corrections differed (NULL for *)';
