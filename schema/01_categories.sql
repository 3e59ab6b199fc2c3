-- The six mistake categories of the shared task, in the order its scorer reports them.
CREATE TABLE categories (
    category    VARCHAR PRIMARY KEY,
    position    INTEGER NOT NULL UNIQUE,
    description VARCHAR NOT NULL
);

INSERT INTO categories VALUES
    ('NAME', 1, 'A wrong name: player, team, city, day of the week, arena'),
    ('NUMBER', 2, 'A wrong number, written as digits or words'),
    ('WORD', 3, 'A wrong word or phrase that is neither a name nor a number'),
    ('CONTEXT', 4, 'A statement that is true but misleading in its context'),
    ('NOT_CHECKABLE', 5, 'A statement that cannot be checked against the game data'),
    ('OTHER', 6, 'Any other mistake');

COMMENT ON TABLE categories IS 'The six mistake categories, in the order the shared task''s scorer reports them';
COMMENT ON COLUMN categories.category IS 'Category name as written in the TYPE column of a mistake list';
COMMENT ON COLUMN categories.position IS 'Report order: NAME 1 … OTHER 6 (the ALL scope comes first, as 0)';
COMMENT ON COLUMN categories.description IS 'What a mistake of this category is';
