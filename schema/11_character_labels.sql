-- Spans read in exact characters with their probabilities (a Mu-SHROOM file's hard and soft labels,
-- etl/mushroom_files.py), kept beside the lists' token spans (mistakes): the mushroom scheme scores characters, and a
-- span widened to whole tokens would no longer be the span the file gave. A list of any other format has no rows here.
CREATE TABLE character_label_lists (
    set_id INTEGER NOT NULL,
    format VARCHAR NOT NULL CHECK (format IN ('mushroom'))
);

COMMENT ON TABLE character_label_lists IS 'One row per list read with character labels: a text of its split with no label row has none (an empty prediction)';
COMMENT ON COLUMN character_label_lists.set_id IS 'The list (annotation_sets.set_id)';
COMMENT ON COLUMN character_label_lists.format IS 'The format it was read from: mushroom (SemEval-2025 Task 3 JSON Lines)';

CREATE TABLE character_labels (
    set_id       INTEGER NOT NULL,
    text_id      VARCHAR NOT NULL,
    line_number  INTEGER NOT NULL,
    label        VARCHAR NOT NULL CHECK (label IN ('hard', 'soft')),
    label_number INTEGER NOT NULL,
    char_start   INTEGER NOT NULL,
    char_end     INTEGER NOT NULL,
    probability  DOUBLE CHECK (probability IS NULL OR probability BETWEEN 0 AND 1),
    CHECK (0 <= char_start AND char_start < char_end)
);

COMMENT ON TABLE character_labels IS 'One row per hard or soft label of a list read with character labels, as its file gave it or as the task''s rules derive it';
COMMENT ON COLUMN character_labels.set_id IS 'The list (character_label_lists.set_id)';
COMMENT ON COLUMN character_labels.text_id IS 'The text (texts.text_id)';
COMMENT ON COLUMN character_labels.line_number IS 'Line of the text''s record in the file (the first line is 1)';
COMMENT ON COLUMN character_labels.label IS 'hard (hard_labels: marked or not) or soft (soft_labels: marked with a probability)';
COMMENT ON COLUMN character_labels.label_number IS 'Position of the label in its record''s list of its kind, from 1 (of two soft labels on one character, the later one counts, as in the task''s scorer)';
COMMENT ON COLUMN character_labels.char_start IS 'First character, counted in code points from 0 in texts.generated_text';
COMMENT ON COLUMN character_labels.char_end IS 'One past the last character (exclusive)';
COMMENT ON COLUMN character_labels.probability IS 'A soft label''s probability, from 0 to 1; NULL for a hard label';
