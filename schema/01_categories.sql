-- The corpora: the shared task is the built-in one; others are imported (accuracy-db import corpus, import factgenie).
CREATE TABLE corpora (
    corpus      VARCHAR PRIMARY KEY,
    description VARCHAR NOT NULL,
    source      VARCHAR
);

INSERT INTO corpora VALUES
    ('shared-task', 'The Accuracy Evaluation Shared Task (INLG 2021): Rotowire basketball summaries', NULL);

COMMENT ON TABLE corpora IS 'One row per corpus: a set of texts, its own categories, and the lists annotating them';
COMMENT ON COLUMN corpora.corpus IS 'The corpus''s name: shared-task for the built-in one';
COMMENT ON COLUMN corpora.description IS 'What the corpus is';
COMMENT ON COLUMN corpora.source IS 'The folder it was imported from (NULL for the shared task, loaded by build)';

-- The mistake categories of each corpus; for the shared task the six, in the order its scorer reports them.
CREATE TABLE categories (
    corpus      VARCHAR NOT NULL,
    category    VARCHAR NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 1),
    description VARCHAR NOT NULL,
    colour      VARCHAR,
    PRIMARY KEY (corpus, category),
    UNIQUE (corpus, position)
);

INSERT INTO categories VALUES
    ('shared-task', 'NAME', 1, 'A wrong name: player, team, city, day of the week, arena', '#0072B2'),
    ('shared-task', 'NUMBER', 2, 'A wrong number, written as digits or words', '#E69F00'),
    ('shared-task', 'WORD', 3, 'A wrong word or phrase that is neither a name nor a number', '#009E73'),
    ('shared-task', 'CONTEXT', 4, 'A statement that is true but misleading in its context', '#CC79A7'),
    ('shared-task', 'NOT_CHECKABLE', 5, 'A statement that cannot be checked against the game data', '#000000'),
    ('shared-task', 'OTHER', 6, 'Any other mistake', '#D55E00');

COMMENT ON TABLE categories IS 'The mistake categories of each corpus (the shared task''s six in the order its scorer reports them)';
COMMENT ON COLUMN categories.corpus IS 'The corpus whose category it is (corpora.corpus)';
COMMENT ON COLUMN categories.category IS 'Category name as written in the TYPE column of a mistake list (for a factgenie campaign, the name of its span category)';
COMMENT ON COLUMN categories.position IS 'Report order from 1 (shared task: NAME 1 … OTHER 6; the ALL scope comes first, as 0)';
COMMENT ON COLUMN categories.description IS 'What a mistake of this category is';
COMMENT ON COLUMN categories.colour IS 'The colour the category is shown in, as a CSS colour (NULL: the dashboard picks one)';
