-- Fingerprint lists by their own content ($ids: their set_ids), once all their rows are loaded: the SHA-256 of
-- what their figures are computed from, in a canonical order. A list covering part of its split names its texts;
-- then its spans (text, first and last token, category, probability, severity), then its character labels (text, kind,
-- position in its record, characters, probability). The file, line numbers, corrections and comments are left
-- out: two lists with the same content score the same, whichever file they came from, and a file giving several
-- lists (a Mu-SHROOM file's gold and annotators, a factgenie campaign's annotators) gives each its own fingerprint.
UPDATE annotation_sets
SET content_sha256 = fingerprints.content_sha256
FROM (
    SELECT
        lists.set_id,
        sha256(concat_ws(
            '|',
            CASE WHEN lists.covers_split THEN 'split' ELSE 'texts:' || coalesce(coverage.texts, '') END,
            'spans:' || coalesce(spans.spans, ''),
            'labels:' || coalesce(labels.labels, '')
        )) AS content_sha256
    FROM annotation_sets AS lists
    LEFT JOIN (
        SELECT set_id, string_agg(text_id, ',' ORDER BY text_id) AS texts
        FROM list_coverage
        WHERE set_id = ANY($ids)
        GROUP BY set_id
    ) AS coverage USING (set_id)
    LEFT JOIN (
        SELECT
            set_id,
            string_agg(
                concat_ws(
                    ':', text_id, doc_token_start, doc_token_end, category, coalesce(probability::VARCHAR, ''),
                    coalesce(severity, '')
                ),
                ';' ORDER BY text_id, doc_token_start, doc_token_end, category, probability, severity
            ) AS spans
        FROM mistakes
        WHERE set_id = ANY($ids)
        GROUP BY set_id
    ) AS spans USING (set_id)
    LEFT JOIN (
        SELECT
            set_id,
            string_agg(
                concat_ws(':', text_id, label, label_number, char_start, char_end, coalesce(probability::VARCHAR, '')),
                ';' ORDER BY text_id, label, label_number
            ) AS labels
        FROM character_labels
        WHERE set_id = ANY($ids)
        GROUP BY set_id
    ) AS labels USING (set_id)
    WHERE lists.set_id = ANY($ids)
) AS fingerprints
WHERE annotation_sets.set_id = fingerprints.set_id
