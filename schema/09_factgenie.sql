-- What a factgenie campaign gave beyond the lists' texts and token spans (each span's start and text as given among
-- them), kept as it came so that `accuracy-db export factgenie` writes the campaign back as it was read
-- (etl/factgenie.py reads it, accuracy_db/export_factgenie.py writes it). A list of any other format has no rows here.
CREATE TABLE factgenie_lists (
    set_id   INTEGER PRIMARY KEY,
    metadata VARCHAR NOT NULL
);

COMMENT ON TABLE factgenie_lists IS 'One row per list loaded from a factgenie campaign: the campaign''s metadata.json';
COMMENT ON COLUMN factgenie_lists.set_id IS 'The list (annotation_sets.set_id)';
COMMENT ON COLUMN factgenie_lists.metadata IS 'The campaign''s metadata.json as JSON text, as it came (its config.annotation_span_categories with each category''s fields as given)';

CREATE TABLE factgenie_records (
    set_id      INTEGER NOT NULL,
    text_id     VARCHAR NOT NULL,
    file        VARCHAR NOT NULL,
    line_number INTEGER NOT NULL,
    dataset     VARCHAR NOT NULL,
    setup_id    VARCHAR NOT NULL,
    example_idx BIGINT NOT NULL,
    fields      VARCHAR NOT NULL,
    PRIMARY KEY (set_id, text_id)
);

COMMENT ON TABLE factgenie_records IS 'One row per record of a factgenie campaign loaded into a list: one annotator''s annotation of one output, with or without spans';
COMMENT ON COLUMN factgenie_records.set_id IS 'The list (annotation_sets.set_id)';
COMMENT ON COLUMN factgenie_records.text_id IS 'The annotated output (texts.text_id)';
COMMENT ON COLUMN factgenie_records.file IS 'The name of the record''s file in the campaign''s files/ folder';
COMMENT ON COLUMN factgenie_records.line_number IS 'Line of the record in that file (the first line is 1)';
COMMENT ON COLUMN factgenie_records.dataset IS 'The record''s dataset: with the list''s split, setup_id and example_idx, factgenie''s key of the output';
COMMENT ON COLUMN factgenie_records.setup_id IS 'The record''s setup_id (the system that generated the output)';
COMMENT ON COLUMN factgenie_records.example_idx IS 'The record''s example_idx (the output''s place in its dataset and split)';
COMMENT ON COLUMN factgenie_records.fields IS 'The record''s other fields as JSON text, as they came (annotations, metadata with annotator_id, text_id when given, flags …): all but dataset, split, setup_id, example_idx and output (texts.generated_text). Its n-th annotation is the n-th mistake of the list and text in mistake_id order, whose category gives its type';
