-- What was published when, and what people said about their submissions.
CREATE TABLE publications (
    published_at TIMESTAMP NOT NULL,
    command      VARCHAR NOT NULL CHECK (command IN ('build', 'refresh', 'check')),
    added        INTEGER NOT NULL,
    changed      INTEGER NOT NULL,
    unchanged    INTEGER NOT NULL,
    retired      INTEGER NOT NULL,
    refused      INTEGER NOT NULL,
    seconds      DOUBLE NOT NULL
);

COMMENT ON TABLE publications IS 'One row per publication of this database by build or refresh, the latest last';
COMMENT ON COLUMN publications.published_at IS 'When the database was published';
COMMENT ON COLUMN publications.command IS 'build (everything loaded anew), refresh (only what changed) or check (the box-score checker''s list put in again)';
COMMENT ON COLUMN publications.added IS 'Submissions loaded for the first time (refused ones count under refused)';
COMMENT ON COLUMN publications.changed IS 'Submissions whose file (or metadata) changed and were loaded again';
COMMENT ON COLUMN publications.unchanged IS 'Submissions kept as they were';
COMMENT ON COLUMN publications.retired IS 'Submissions removed because their file was deleted';
COMMENT ON COLUMN publications.refused IS 'Submission files refused (see rejections)';
COMMENT ON COLUMN publications.seconds IS 'How long the build or refresh took';

CREATE TABLE submission_metadata (
    submission  VARCHAR NOT NULL,
    team        VARCHAR,
    system      VARCHAR,
    approach    VARCHAR CHECK (approach IN ('metric', 'human', 'hybrid')),
    description VARCHAR,
    url         VARCHAR,
    sha256      VARCHAR NOT NULL,
    corpus      VARCHAR NOT NULL DEFAULT 'shared-task',
    PRIMARY KEY (corpus, submission)
);

COMMENT ON TABLE submission_metadata IS 'What the sidecar <submission>.json or .yaml beside a submission (or a list of a corpus folder) says about it';
COMMENT ON COLUMN submission_metadata.submission IS 'The submission''s name (annotation_sets.name)';
COMMENT ON COLUMN submission_metadata.team IS 'The team that submitted it';
COMMENT ON COLUMN submission_metadata.system IS 'The name of the metric or protocol';
COMMENT ON COLUMN submission_metadata.approach IS 'metric, human or hybrid';
COMMENT ON COLUMN submission_metadata.description IS 'A short description';
COMMENT ON COLUMN submission_metadata.url IS 'Where to read more';
COMMENT ON COLUMN submission_metadata.sha256 IS 'SHA-256 of the sidecar file''s bytes';
COMMENT ON COLUMN submission_metadata.corpus IS 'The corpus of the list (annotation_sets.corpus): shared-task for the submissions folder';

CREATE TABLE model_inputs (
    model    VARCHAR PRIMARY KEY,
    gold_ids VARCHAR NOT NULL
);

COMMENT ON TABLE model_inputs IS 'One row per model of the gold lists alone (its header says Materialized: table of the gold lists): the gold lists it was last computed from, so that scoring computes it again only when they change';
COMMENT ON COLUMN model_inputs.model IS 'The model (a table of queries/)';
COMMENT ON COLUMN model_inputs.gold_ids IS 'The set_ids of the gold lists it was computed from, in order, separated by spaces (a list''s mistakes never change under its set_id: a list loaded again gets a new one)';
