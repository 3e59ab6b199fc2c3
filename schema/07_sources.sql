-- The files the database was built from, so that a refresh can tell what changed.
CREATE TABLE source_files (
    role     VARCHAR NOT NULL CHECK (role IN ('schema', 'version', 'data', 'submission', 'metadata', 'folder', 'scores', 'scores-metadata')),
    corpus   VARCHAR NOT NULL,
    name     VARCHAR NOT NULL,
    path     VARCHAR NOT NULL,
    size     BIGINT NOT NULL,
    mtime_ns BIGINT NOT NULL,
    sha256   VARCHAR NOT NULL,
    PRIMARY KEY (role, corpus, name),
    CHECK ((role = 'folder') = (corpus <> ''))
);

COMMENT ON TABLE source_files IS 'One row per input file of the published database: data files, submissions (loaded or refused), their metadata sidecars, and the files of registered corpus folders, factgenie campaigns and Mu-SHROOM files';
COMMENT ON COLUMN source_files.role IS 'schema (the DDL the database was created with), version (every definition of the package that published it: the DDL and the models; readers refuse a database of another version), data (a file of the shared-task data folder), submission (a CSV of the submissions folder), metadata (its sidecar) folder (a file of a registered folder, corpus_folders), scores (a file of the scores folder, build or refresh --scores) or scores-metadata (its sidecar)';
COMMENT ON COLUMN source_files.corpus IS 'For folder, the corpus the registered folder is loaded into (corpus_folders.corpus); empty for the other roles';
COMMENT ON COLUMN source_files.name IS 'For data, the path inside the data folder; for folder, the file''s path; for scores and scores-metadata, the scores file''s name in its folder; otherwise the submission''s name';
COMMENT ON COLUMN source_files.path IS 'The file as it was read';
COMMENT ON COLUMN source_files.size IS 'Size in bytes when it was read';
COMMENT ON COLUMN source_files.mtime_ns IS 'Modification time (ns) when it was read: with the size, it spares hashing an untouched file again';
COMMENT ON COLUMN source_files.sha256 IS 'SHA-256 of the bytes';

-- The folders (and Mu-SHROOM files) a corpus is loaded from, which build and refresh read again.
CREATE TABLE corpus_folders (
    position INTEGER PRIMARY KEY,
    folder   VARCHAR NOT NULL,
    format   VARCHAR NOT NULL CHECK (format IN ('corpus', 'factgenie', 'mushroom', 'mqm')),
    corpus   VARCHAR NOT NULL,
    kind     VARCHAR CHECK (kind IN ('gold', 'submission')),
    name     VARCHAR,
    humans   VARCHAR,
    UNIQUE (folder, corpus, name),
    CHECK ((name IS NOT NULL) = (format IN ('mushroom', 'mqm') AND kind = 'submission'))
);

COMMENT ON TABLE corpus_folders IS 'One row per folder or file registered with the database (by build or refresh --corpus-dir, import corpus, import factgenie or import mushroom): build and refresh load it again, and refresh reloads its corpus when a file of it is added, changed or removed (a Mu-SHROOM prediction file alone, when no other file of its corpus changed)';
COMMENT ON COLUMN corpus_folders.position IS 'Order of registration from 1: a corpus is loaded from its folders in this order';
COMMENT ON COLUMN corpus_folders.folder IS 'The folder (for mushroom and mqm, the file), as an absolute path';
COMMENT ON COLUMN corpus_folders.format IS 'corpus (a corpus folder: texts.jsonl, categories.yaml, lists/), factgenie (a campaign folder), mushroom (a SemEval-2025 Task 3 file) or mqm (a Google MQM TSV file)';
COMMENT ON COLUMN corpus_folders.corpus IS 'The corpus it is loaded into (corpora.corpus)';
COMMENT ON COLUMN corpus_folders.kind IS 'For a factgenie campaign or a Mu-SHROOM file, whether its lists are gold lists or submissions; NULL for a corpus folder';
COMMENT ON COLUMN corpus_folders.name IS 'For a Mu-SHROOM or MQM file loaded as a submission, the name of its submission (import mushroom --name, import mqm --name); NULL otherwise';

COMMENT ON COLUMN corpus_folders.humans IS 'For an MQM gold file imported with --human, the systems it names as human references, as a JSON list; NULL otherwise (the names that look like a reference)';

CREATE TABLE corpus_rejections (
    corpus  VARCHAR NOT NULL,
    folder  VARCHAR NOT NULL,
    file    VARCHAR NOT NULL,
    line    INTEGER,
    span    BOOLEAN NOT NULL,
    message VARCHAR NOT NULL
);

COMMENT ON TABLE corpus_rejections IS 'One row per problem of each refused file of a registered folder: a refused list loads nothing of it; a refused texts.jsonl, categories.yaml or campaign loads nothing of the folder';
COMMENT ON COLUMN corpus_rejections.corpus IS 'The corpus the folder is registered for (corpus_folders.corpus)';
COMMENT ON COLUMN corpus_rejections.folder IS 'The registered folder (corpus_folders.folder)';
COMMENT ON COLUMN corpus_rejections.file IS 'The refused file (or the folder, for a problem of the whole folder)';
COMMENT ON COLUMN corpus_rejections.line IS 'Line of the problem in the file (the first line is 1); NULL for the whole file';
COMMENT ON COLUMN corpus_rejections.span IS 'Whether the problem is a span that could not be placed on the text (offsets beyond it, a text not at its offset and not found exactly once elsewhere, a start of -1, an empty or blank text)';
COMMENT ON COLUMN corpus_rejections.message IS 'What is wrong';
