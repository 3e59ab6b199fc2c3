-- The generated texts that were annotated, and their tokens.
CREATE TABLE texts (
    text_id          VARCHAR PRIMARY KEY,
    split            VARCHAR NOT NULL,
    generated_text   VARCHAR,
    detokenized_text VARCHAR,
    token_count      INTEGER NOT NULL,
    sentence_count   INTEGER NOT NULL,
    corpus           VARCHAR NOT NULL DEFAULT 'shared-task',
    source_data      VARCHAR
);

COMMENT ON TABLE texts IS 'One row per annotated generated text of every corpus (shared task: S001…S060 train, T001…T030 test)';
COMMENT ON COLUMN texts.text_id IS 'Text id: in the shared task the file name without .txt, e.g. S001 (the key of games too); for a factgenie campaign dataset/split/setup_id/example_idx';
COMMENT ON COLUMN texts.split IS 'Shared task: train (the 60 texts released first, called dev in the data''s README) or test, evaluate for the texts given to the evaluate command; another corpus: its own split names';
COMMENT ON COLUMN texts.generated_text IS 'The text as annotated: in the shared task its tokens joined by single spaces (NULL when only token ids are known); in another corpus the text as given, which character offsets count in';
COMMENT ON COLUMN texts.detokenized_text IS 'The same text detokenized for reading, from games.csv (NULL without games.csv)';
COMMENT ON COLUMN texts.token_count IS 'Number of tokens';
COMMENT ON COLUMN texts.sentence_count IS 'Number of sentences (a sentence ends at a token that is exactly ".")';
COMMENT ON COLUMN texts.corpus IS 'The corpus the text belongs to (corpora.corpus)';
COMMENT ON COLUMN texts.source_data IS 'The data the text was generated from, as JSON text (NULL when not given; the shared task''s is in games)';

CREATE TABLE tokens (
    text_id     VARCHAR NOT NULL,
    doc_token   INTEGER NOT NULL,
    sentence_id INTEGER NOT NULL,
    sent_token  INTEGER NOT NULL,
    token       VARCHAR,
    char_start  INTEGER,
    char_end    INTEGER
);

COMMENT ON TABLE tokens IS 'One row per token of a text, with its id in both id schemes of the mistake lists';
COMMENT ON COLUMN tokens.text_id IS 'The text (texts.text_id)';
COMMENT ON COLUMN tokens.doc_token IS 'Position in the document, from 1 (DOC_TOKEN_START/END)';
COMMENT ON COLUMN tokens.sentence_id IS 'Sentence number, from 1 (SENTENCE_ID)';
COMMENT ON COLUMN tokens.sent_token IS 'Position in the sentence, from 1 (SENT_TOKEN_START/END)';
COMMENT ON COLUMN tokens.token IS 'The token itself (NULL when the tokens came from token_lookup.yaml alone)';
COMMENT ON COLUMN tokens.char_start IS 'Offset of the token''s first character in texts.generated_text, from 0 (NULL without the text)';
COMMENT ON COLUMN tokens.char_end IS 'Offset just past the token''s last character (generated_text[char_start:char_end] is the token)';
