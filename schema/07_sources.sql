-- The files the database was built from, so that a refresh can tell what changed.
CREATE TABLE source_files (
    role     VARCHAR NOT NULL CHECK (role IN ('schema', 'version', 'data', 'submission', 'metadata')),
    name     VARCHAR NOT NULL,
    path     VARCHAR NOT NULL,
    size     BIGINT NOT NULL,
    mtime_ns BIGINT NOT NULL,
    sha256   VARCHAR NOT NULL,
    PRIMARY KEY (role, name)
);

COMMENT ON TABLE source_files IS 'One row per input file of the published database: data files, submissions (loaded or refused) and their metadata sidecars';
COMMENT ON COLUMN source_files.role IS 'schema (the DDL the database was created with), version (every definition of the package that published it: the DDL and the models; readers refuse a database of another version), data (a file of the shared-task data folder), submission (a CSV of the submissions folder) or metadata (its sidecar)';
COMMENT ON COLUMN source_files.name IS 'For data, the path inside the data folder; otherwise the submission''s name';
COMMENT ON COLUMN source_files.path IS 'The file as it was read';
COMMENT ON COLUMN source_files.size IS 'Size in bytes when it was read';
COMMENT ON COLUMN source_files.mtime_ns IS 'Modification time (ns) when it was read: with the size, it spares hashing an untouched file again';
COMMENT ON COLUMN source_files.sha256 IS 'SHA-256 of the bytes';
