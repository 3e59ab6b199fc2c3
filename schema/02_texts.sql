-- The generated texts that were annotated, and their tokens.
CREATE TABLE texts (
    text_id          VARCHAR PRIMARY KEY,
    split            VARCHAR NOT NULL,
    generated_text   VARCHAR,
    detokenized_text VARCHAR,
    token_count      INTEGER NOT NULL,
    sentence_count   INTEGER NOT NULL
);

COMMENT ON TABLE texts IS 'One row per annotated generated text (S001…S060 train, T001…T030 test)';
COMMENT ON COLUMN texts.text_id IS 'Text id without the .txt suffix, e.g. S001; the key of games too';
COMMENT ON COLUMN texts.split IS 'train (the 60 texts released first, called dev in the data''s README) or test; evaluate for the texts given to the evaluate command';
COMMENT ON COLUMN texts.generated_text IS 'The text as annotated: tokens joined by single spaces (NULL when only token ids are known)';
COMMENT ON COLUMN texts.detokenized_text IS 'The same text detokenized for reading, from games.csv (NULL without games.csv)';
COMMENT ON COLUMN texts.token_count IS 'Number of tokens';
COMMENT ON COLUMN texts.sentence_count IS 'Number of sentences (a sentence ends at a token that is exactly ".")';

CREATE TABLE tokens (
    text_id     VARCHAR NOT NULL,
    doc_token   INTEGER NOT NULL,
    sentence_id INTEGER NOT NULL,
    sent_token  INTEGER NOT NULL,
    token       VARCHAR
);

COMMENT ON TABLE tokens IS 'One row per token of a text, with its id in both id schemes of the mistake lists';
COMMENT ON COLUMN tokens.text_id IS 'The text (texts.text_id)';
COMMENT ON COLUMN tokens.doc_token IS 'Position in the document, from 1 (DOC_TOKEN_START/END)';
COMMENT ON COLUMN tokens.sentence_id IS 'Sentence number, from 1 (SENTENCE_ID)';
COMMENT ON COLUMN tokens.sent_token IS 'Position in the sentence, from 1 (SENT_TOKEN_START/END)';
COMMENT ON COLUMN tokens.token IS 'The token itself (NULL when the tokens came from token_lookup.yaml alone)';
