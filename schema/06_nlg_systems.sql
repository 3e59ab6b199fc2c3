-- Which neural system generated a text, where that is known (optional metadata: nlg_systems.csv).
CREATE TABLE nlg_systems (
    text_id   VARCHAR PRIMARY KEY,
    system    VARCHAR NOT NULL,
    reference VARCHAR
);

COMMENT ON TABLE nlg_systems IS 'Which neural system generated a text, where known (nlg_systems.csv beside the data folder; without it, the package''s copy for the 21 shared-task texts it names)';
COMMENT ON COLUMN nlg_systems.text_id IS 'The text (texts.text_id)';
COMMENT ON COLUMN nlg_systems.system IS 'The generating system as nlg_systems.csv names it, e.g. wiseman, puduppully, rebuffel';
COMMENT ON COLUMN nlg_systems.reference IS 'The paper that describes the system, e.g. Wiseman et al. 2017';
