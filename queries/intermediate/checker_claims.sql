-- What the numbers of each text that has a game claim, as the box-score checker reads them (docs/checker.md): each
-- number a pattern of the words around it ties to a statistic (checker_box_score.stat), with the kind of entity it
-- describes. The patterns, by rule:
--   stat: a number before a statistic's word (points, rebounds, assists, steals, blocks, turnovers, minutes,
--     offensive or defensive rebounds, threes, free throws, field goals), directly or through a hyphen
--     ("18 - point"); "a" or "an" before the singular ("a steal"), "pair" in "a pair of steals". Team points in a
--     quarter or half when the words after name one.
--   shooting split: two numbers joined by "-", "of", "for" ("7 - of - 12", "7 - for - 12", "4 - 12 FG", "7/12"),
--     made and attempted field goals, threes or free throws as the words after say (FG, 3Pt, FT, from the field,
--     from three, from the line …); "of" or "for" without such words are field goals.
--   percentage: a number before "percent" or "%", a field-goal, three-point or free-throw percentage as the words
--     after say; not a bound ("over 50 percent").
--   record: "( W - L )", the wins and losses of the team named before it.
--   score: two numbers joined by "-" that are none of the above, the points of the game (the larger number the
--     winner's), or of a quarter or half when the sentence names one.
--   margin: a number before "- point win" (victory, loss, defeat) or after "won by" (beat by …).
--   double-double: "double - double" or "triple - double", how many of the player's figures reach ten.
-- A number whose next words put it in a context the box score does not hold (per game, this season, in his last,
-- straight, of his …) claims nothing; nor a player's points in a quarter or half, nor a "double-double" after
-- "averaging". A number after "averaging" is checked as any other: the gold marks such numbers as mistakes.
-- Grain: one row per claim: a token (its first) that claims one statistic.
-- Key: text_id, doc_token
-- Columns:
--   corpus: The text's corpus (texts.corpus).
--   split: train or test: the text's split.
--   text_id: The text (texts.text_id).
--   sentence_id: The claim's sentence.
--   doc_token: The claim's first token, counted in the document.
--   last_token: The claim's last token: the number's, or double-double's three.
--   tokens: The claim's tokens joined by spaces.
--   rule: stat, shooting split, percentage, record, score, margin or double-double.
--   entity_kind: Who the claim is about: player or team (the entity named before it in the sentence, or a pronoun's),
--     team (a team named just before it), or game (the game itself).
--   stat: The statistic claimed (checker_box_score.stat).
--   claimed: The value the text gives.
-- the parts of the game a claim may name, by the words that name them, in the order the patterns try them
-- (nearby_only: a name only the score's pattern reads, anywhere near the pair)
WITH period_names (period, period_rank, phrase, nearby_only) AS (
    VALUES
        ('pts_qtr1', 1, 'first quarter', FALSE), ('pts_qtr1', 1, 'opening quarter', FALSE),
        ('pts_qtr1', 1, '1st quarter', FALSE), ('pts_qtr1', 1, 'after one', TRUE),
        ('pts_qtr2', 2, 'second quarter', FALSE), ('pts_qtr2', 2, '2nd quarter', FALSE),
        ('pts_qtr3', 3, 'third quarter', FALSE), ('pts_qtr3', 3, '3rd quarter', FALSE),
        ('pts_qtr4', 4, 'fourth quarter', FALSE), ('pts_qtr4', 4, 'final quarter', FALSE),
        ('pts_qtr4', 4, '4th quarter', FALSE),
        ('pts_half1', 5, 'first half', FALSE), ('pts_half1', 5, 'opening half', FALSE),
        ('pts_half1', 5, 'halftime', TRUE), ('pts_half1', 5, 'the half', TRUE), ('pts_half1', 5, 'the break', TRUE),
        ('pts_half2', 6, 'second half', FALSE), ('pts_half2', 6, 'final half', FALSE)
),

-- the words that start a statistic's part of the game: "in the first quarter ", "during the second half "
period_starts AS (
    SELECT period, preposition || ' the ' || phrase || ' ' AS words
    FROM period_names
    CROSS JOIN (VALUES ('in'), ('during')) AS prepositions (preposition)
    WHERE NOT nearby_only
),

-- each sentence's words in lower case, each followed by a space
sentences AS (
    SELECT text_id, sentence_id, string_agg(word, ' ' ORDER BY sent_token) || ' ' AS words
    FROM checker_tokens
    GROUP BY text_id, sentence_id
),

-- each token a pattern starts from (a number, a word of the patterns, a split "7/12"), with the words after (up to
-- twelve) and before (up to sixteen) it in its sentence, each word followed by a space (after is ' ' and before '  '
-- when there is none): cut from its sentence's words by where they start, the lengths of the words before summed
-- over the sentence
contexts AS (
    SELECT
        places.corpus,
        places.split,
        places.text_id,
        places.doc_token,
        places.sentence_id,
        places.sent_token,
        places.token,
        places.word,
        places.number,
        CASE
            WHEN places.through_twelve_after = places.through_it THEN ' '
            ELSE substr(sentences.words, places.through_it + 1, places.through_twelve_after - places.through_it)
        END AS after,
        CASE
            WHEN places.before_it = 0 THEN '  '
            ELSE ' ' || substr(
                sentences.words, places.before_sixteen_before + 1, places.before_it - places.before_sixteen_before
            )
        END AS before
    FROM (
        SELECT
            *,
            -- the characters of the sentence's words (a space each) up to the token, before it, through the
            -- twelfth word after it, and before the sixteenth word before it
            CAST(sum(length(word) + 1) OVER (sentence ROWS UNBOUNDED PRECEDING) AS INTEGER) AS through_it,
            CAST(sum(length(word) + 1) OVER (sentence ROWS UNBOUNDED PRECEDING) AS INTEGER) - length(word) - 1
            AS before_it,
            CAST(sum(length(word) + 1) OVER (sentence ROWS BETWEEN UNBOUNDED PRECEDING AND 12 FOLLOWING) AS INTEGER)
            AS through_twelve_after,
            CAST(
                coalesce(sum(length(word) + 1) OVER (sentence ROWS BETWEEN UNBOUNDED PRECEDING AND 17 PRECEDING), 0)
                AS INTEGER
            ) AS before_sixteen_before
        FROM checker_tokens
        WINDOW sentence AS (PARTITION BY text_id, sentence_id ORDER BY sent_token)
    ) AS places
    JOIN sentences ON sentences.text_id = places.text_id AND sentences.sentence_id = places.sentence_id
    WHERE places.number IS NOT NULL
        OR places.word IN ('a', 'an', 'pair', 'double', 'triple', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth')
        OR regexp_matches(places.token, '^([0-9]{1,3}/[0-9]{1,3})$')
),

-- each number with the words that may join it to a second: "- of -", "- for -", "of", "for" or "-"; '' for none
joints AS (
    SELECT
        *,
        CASE
            WHEN after LIKE '- of - %' THEN '- of -'
            WHEN after LIKE '- for - %' THEN '- for -'
            WHEN after LIKE 'of %' THEN 'of'
            WHEN after LIKE 'for %' THEN 'for'
            WHEN after LIKE '- %' THEN '-'
            ELSE ''
        END AS joint
    FROM contexts
    WHERE number IS NOT NULL
),

-- two numbers joined: the second's position, and the words between
pairs AS (
    SELECT
        first.*,
        second.doc_token AS second_token,
        second.number AS second_number,
        -- the words after the second number, each followed by a space
        substr(first.after, length(first.joint) + length(second.word) + 3) AS rest
    FROM joints AS first
    JOIN checker_tokens AS second
        ON second.text_id = first.text_id
        AND second.sentence_id = first.sentence_id
        -- the second number's token: the one after the joint's words
        AND second.doc_token = first.doc_token + 2 + length(first.joint) - length(replace(first.joint, ' ', ''))
    WHERE second.number IS NOT NULL
        AND first.joint <> ''
        AND NOT regexp_matches(first.before, '- $')  -- the second number of a pair is not a pair's first
),

typed_pairs AS (
    SELECT
        *,
        rest || ' ' AS after_second,
        CASE
            WHEN regexp_matches(rest || ' ', '^(3pt|3p|3pm|3fg|threes|from (three|3|deep|downtown|distance|long range|beyond|behind)|from the (three|3|arc|perimeter|outside)|(three|3) - (point|pointers))')
                THEN 'fg3'
            WHEN regexp_matches(rest || ' ', '^(ft|fts|free throws|from the (free|line|charity|stripe|foul))')
                THEN 'ft'
            WHEN regexp_matches(rest || ' ', '^(fg|fgs|field goals|from the (field|floor)|shooting)')
                THEN 'fg'
            WHEN joint IN ('of', '- of -', 'for', '- for -') THEN 'fg'
        END AS shooting
    FROM pairs
),

pair_claims AS (
    -- shooting splits: made, then attempted
    SELECT text_id, sentence_id, doc_token, doc_token AS last_token, token AS tokens, 'shooting split' AS rule,
        'entity' AS entity_kind, shooting || 'm' AS stat, number AS claimed, after_second AS later
    FROM typed_pairs
    WHERE shooting IS NOT NULL AND NOT (before LIKE '% ( ' AND after_second LIKE ') %')
    UNION ALL
    SELECT text_id, sentence_id, second_token, second_token, CAST(second_number AS VARCHAR), 'shooting split',
        'entity', shooting || 'a', second_number, after_second
    FROM typed_pairs
    WHERE shooting IS NOT NULL AND NOT (before LIKE '% ( ' AND after_second LIKE ') %')
    UNION ALL
    -- records: wins, then losses
    SELECT text_id, sentence_id, doc_token, doc_token, token, 'record', 'team', 'wins', number, after_second
    FROM typed_pairs
    WHERE joint = '-' AND before LIKE '% ( ' AND after_second LIKE ') %'
    UNION ALL
    SELECT text_id, sentence_id, second_token, second_token, CAST(second_number AS VARCHAR), 'record', 'team', 'losses',
        second_number, after_second
    FROM typed_pairs
    WHERE joint = '-' AND before LIKE '% ( ' AND after_second LIKE ') %'
    UNION ALL
    -- scores: the larger number the winner's
    SELECT text_id, sentence_id,
        CASE which WHEN 0 THEN doc_token ELSE second_token END,
        CASE which WHEN 0 THEN doc_token ELSE second_token END,
        CAST(CASE which WHEN 0 THEN number ELSE second_number END AS VARCHAR), 'score', 'game',
        period || CASE WHEN CASE which WHEN 0 THEN number ELSE second_number END = greatest(number, second_number)
            THEN '_high' ELSE '_low' END,
        CASE which WHEN 0 THEN number ELSE second_number END, after_second
    FROM (
        SELECT
            *,
            CASE
                WHEN regexp_matches(nearby, ' (rebounding|rebounds|boards|glass) ')
                    AND NOT regexp_matches(nearby, ' (quarter|half|run|paint|offensive|defensive|second - chance) ')
                    THEN 'reb'
                WHEN regexp_matches(nearby, ' (battle|run|spurt|stretch|paint|bench|rebounding|rebounds|turnovers|overtime|ot|quarters|points off) ')
                    THEN NULL
                -- the first part of the game named near the pair, or none
                ELSE coalesce(
                    (
                        SELECT names.period FROM period_names AS names
                        WHERE nearby LIKE '% ' || names.phrase || ' %' ORDER BY names.period_rank LIMIT 1
                    ),
                    CASE WHEN NOT regexp_matches(nearby, ' (quarter|period|half|lead|margin|deficit|advantage|edge) ') THEN 'pts' END
                )
            END AS period
        FROM (
            -- the words before the pair, and up to eight after it
            SELECT
                *,
                before || trim(substr(rest, 1, length(rest) - length(regexp_replace(rest, '^(\S+ ){0,8}', '')))) || ' '
                AS nearby
            FROM typed_pairs
        ) AS pairs_nearby
        WHERE joint = '-' AND shooting IS NULL AND NOT (before LIKE '% ( ' AND after_second LIKE ') %')
    ) AS scores
    CROSS JOIN (VALUES (0), (1)) AS sides (which)
    WHERE period IS NOT NULL
),

slash_claims AS (
    SELECT text_id, sentence_id, doc_token, doc_token AS last_token, token AS tokens, 'shooting split' AS rule,
        'entity' AS entity_kind, shooting || part AS stat, CAST(split_part(token, '/', CASE part WHEN 'm' THEN 1 ELSE 2 END) AS INTEGER) AS claimed,
        after AS later
    FROM (
        SELECT
            *,
            CASE
                WHEN regexp_matches(after, '^(3pt|3p|threes|from (three|3|deep|downtown|distance|long range|beyond|behind)|from the (three|3|arc))') THEN 'fg3'
                WHEN regexp_matches(after, '^(ft|free throws|from the (free|line|charity|stripe|foul))') THEN 'ft'
                ELSE 'fg'
            END AS shooting
        FROM contexts
        WHERE regexp_matches(token, '^([0-9]{1,3}/[0-9]{1,3})$')
    ) AS slashes
    CROSS JOIN (VALUES ('m'), ('a')) AS parts (part)
    WHERE part = 'm'  -- one claim a token: the made shots (the attempts are checked when they differ: below)
),

-- the statistic's word after a number ("- point", "rebounds", "of steals" after "pair"), and the words after it
stat_words AS (
    SELECT
        *,
        substr(after, length(prefix) + 1) AS later,
        -- the prefix without "of " or "- " before the word, nor the space after it
        trim(
            CASE
                WHEN prefix LIKE 'of - %' THEN substr(prefix, 6)
                WHEN prefix LIKE 'of %' THEN substr(prefix, 4)
                WHEN prefix LIKE '- %' THEN substr(prefix, 3)
                ELSE prefix
            END
        ) AS stat_word
    FROM (
        SELECT
            *,
            -- the words the pattern matches at the start of after: after less what follows them
            substr(
                after,
                1,
                length(after) - length(regexp_replace(
                    after,
                    '^((of )?(- )?(offensive (rebounds?|boards?)|defensive (rebounds?|boards?)|points?|pts|rebounds?|boards?|reb|assists?|dimes?|ast|steals?|stl|blocks?|blocked shots?|blk|turnovers?|tov|minutes?|min|three - pointers?|threes|3 - pointers?|free throws?|field goals?) )',
                    ''
                ))
            ) AS prefix
        FROM contexts
        WHERE NOT before LIKE '%- '
    ) AS prefixed
    WHERE prefix <> ''
),

single_claims AS (
    SELECT
        *,
        CASE
            WHEN stat_word LIKE 'offensive %' THEN 'oreb'
            WHEN stat_word LIKE 'defensive %' THEN 'dreb'
            WHEN regexp_matches(stat_word, '^(points?|pts)$') THEN 'pts'
            WHEN regexp_matches(stat_word, '^(rebounds?|boards?|reb)$') THEN 'reb'
            WHEN regexp_matches(stat_word, '^(assists?|dimes?|ast)$') THEN 'ast'
            WHEN regexp_matches(stat_word, '^(steals?|stl)$') THEN 'stl'
            WHEN regexp_matches(stat_word, '^(blocks?|blocked shots?|blk)$') THEN 'blk'
            WHEN regexp_matches(stat_word, '^(turnovers?|tov)$') THEN 'tov'
            WHEN regexp_matches(stat_word, '^(minutes?|min)$') THEN 'minutes'
            WHEN regexp_matches(stat_word, '^(three - pointers?|threes|3 - pointers?)$') THEN 'fg3m'
            WHEN stat_word LIKE 'free throw%' THEN 'ftm'
            WHEN stat_word LIKE 'field goal%' THEN 'fgm'
        END AS stat,
        CASE word WHEN 'a' THEN 1 WHEN 'an' THEN 1 WHEN 'pair' THEN 2 ELSE number END AS claimed
    FROM stat_words
    WHERE CASE
        WHEN word = 'pair' THEN prefix LIKE 'of %'
        WHEN word IN ('a', 'an') THEN NOT regexp_matches(prefix, '^(of|-) ') AND NOT regexp_matches(stat_word, 's$')
        ELSE number IS NOT NULL AND NOT prefix LIKE 'of %'
    END
),

stat_claims AS (
    SELECT text_id, sentence_id, doc_token, doc_token AS last_token, token AS tokens,
        CASE WHEN period IS NULL THEN 'stat' ELSE 'score' END AS rule,
        CASE WHEN period IS NULL THEN 'entity' ELSE 'team' END AS entity_kind,
        coalesce(period, stat) AS stat, claimed, later
    FROM (
        SELECT
            *,
            -- the part of the game the words after name ("in the first quarter")
            CASE WHEN stat = 'pts' THEN (SELECT starts.period FROM period_starts AS starts WHERE later LIKE starts.words || '%') END
            AS period
        FROM single_claims
        WHERE NOT (stat = 'pts' AND regexp_matches(later, '^(lead|deficit|run|swing|edge|cushion|advantage|margin|game|spread|underdog|favorite|win|victory|loss|defeat|blowout|rout|triumph|shot|play|range|line|attempt|attempts|outing|effort|performance|night|contest|quarter|half|stretch|spurt|scoring|first|second|third|fourth|opening|over) '))
    ) AS periods
    WHERE NOT regexp_matches(later, '^(in|during) the (first|opening|1st|second|2nd|third|3rd|fourth|final|4th|last) (quarter|half|period|frame|minutes?) ')
        OR period IS NOT NULL
),

percentage_claims AS (
    SELECT text_id, sentence_id, doc_token, doc_token AS last_token, token AS tokens, 'percentage' AS rule,
        'entity' AS entity_kind, shooting || '_pct' AS stat, number AS claimed, later
    FROM (
        SELECT
            *,
            regexp_replace(after, '^(percent|%) ', '') AS later,
            CASE
                WHEN regexp_matches(regexp_replace(after, '^(percent|%) ', ''), '^((shooting|clip) )?(from )?(the )?(three|3|deep|downtown|distance|long range|beyond|behind|arc|perimeter|outside)') THEN 'fg3'
                WHEN regexp_matches(regexp_replace(after, '^(percent|%) ', ''), '^((shooting|clip) )?(from )?(the )?(free|line|charity|stripe|foul)') THEN 'ft'
                WHEN regexp_matches(regexp_replace(after, '^(percent|%) ', ''), '^((shooting|clip) )?(from )?(the )?(field|floor)') THEN 'fg'
            END AS shooting
        FROM contexts
        WHERE number IS NOT NULL AND regexp_matches(after, '^(percent|%) ')
    ) AS percentages
    WHERE shooting IS NOT NULL
        -- a bound ("shooting over 50 percent"), not the figure
        AND NOT regexp_matches(before, ' (over|under|above|below|than|least|most|nearly|almost|near) $')
),

margin_claims AS (
    SELECT text_id, sentence_id, doc_token, doc_token AS last_token, token AS tokens, 'margin' AS rule,
        'game' AS entity_kind, period || '_margin' AS stat, number AS claimed, after AS later
    FROM (
        SELECT
            *,
            -- the part of the game the words after name ("points in the first quarter"), as the statistics read it
            coalesce(
                (
                    SELECT starts.period FROM period_starts AS starts
                    WHERE after LIKE starts.words || '%' OR after LIKE 'points ' || starts.words || '%'
                ),
                CASE
                    WHEN regexp_matches(before, ' (outscored|outscoring|outscore|out - scored|out - scoring)( \S+){1,4} by $')
                        THEN NULL
                    ELSE 'pts'
                END
            ) AS period
        FROM contexts
        WHERE number IS NOT NULL
            AND (regexp_matches(after, '^- point (win|victory|loss|defeat|blowout|rout|triumph) ')
                OR regexp_matches(before, ' (won|win|winning|lost|losing|beat|defeated|victory|triumph) by $')
                OR regexp_matches(before, ' (outscored|outscoring|outscore|out - scored|out - scoring)( \S+){1,4} by $'))
    ) AS margins
    WHERE period IS NOT NULL
),

-- "second on the team": where his points put him among his teammates
rank_claims AS (
    SELECT text_id, sentence_id, doc_token, doc_token AS last_token, token AS tokens, 'team rank' AS rule,
        'entity' AS entity_kind, 'pts_rank' AS stat,
        CASE word WHEN 'first' THEN 1 WHEN 'second' THEN 2 WHEN 'third' THEN 3 WHEN 'fourth' THEN 4 WHEN 'fifth' THEN 5
            ELSE 6 END AS claimed, after AS later
    FROM contexts
    WHERE word IN ('first', 'second', 'third', 'fourth', 'fifth', 'sixth')
        AND regexp_matches(after, '^on the team ')
),

double_claims AS (
    SELECT text_id, sentence_id, doc_token, doc_token + 2 AS last_token, token || ' - double' AS tokens,
        'double-double' AS rule, 'entity' AS entity_kind, 'double' AS stat,
        CASE word WHEN 'double' THEN 2 ELSE 3 END AS claimed, substr(after, 10) AS later
    FROM contexts
    WHERE word IN ('double', 'triple') AND after LIKE '- double %'
        AND NOT regexp_matches(before, ' (near|nearly|almost|narrowly|missed|averaging|averages|another|straight|consecutive|career|season|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) (a |an )?$')  -- "nearly a", "averaging a"
        AND NOT regexp_matches(before, '[0-9]+(th|nd|rd|st) $')
)

SELECT corpus, split, text_id, sentence_id, doc_token, last_token, tokens, rule, entity_kind, stat, claimed
FROM (
    SELECT tokens.corpus, tokens.split, claims.text_id, claims.sentence_id, claims.doc_token, claims.last_token,
        claims.tokens, claims.rule, claims.entity_kind, claims.stat, claims.claimed,
        -- a token two patterns read ("86 of 130 rebounds": a split's attempts and a statistic): the pair's reading
        row_number() OVER (
            PARTITION BY claims.text_id, claims.doc_token
            ORDER BY CASE claims.rule WHEN 'shooting split' THEN 1 WHEN 'record' THEN 2 WHEN 'score' THEN 3 ELSE 4 END,
                claims.stat
        ) AS reading
    FROM (
        SELECT * FROM pair_claims
        UNION ALL SELECT * FROM slash_claims
        UNION ALL SELECT * FROM stat_claims
        UNION ALL SELECT * FROM percentage_claims
        UNION ALL SELECT * FROM margin_claims
        UNION ALL SELECT * FROM rank_claims
        UNION ALL SELECT * FROM double_claims
    ) AS claims
    JOIN checker_tokens AS tokens ON tokens.text_id = claims.text_id AND tokens.doc_token = claims.doc_token
    -- a figure of another time, or of a part of the game the box score does not split
    WHERE NOT regexp_matches(' ' || claims.later, '^ (\S+ ){0,4}(per game|a game|per contest|on the season|this season|of the season|on the year|this year|in (his|their|the) (last|past|previous)|over (his|their|the) (last|past)|straight|consecutive|career|games|of (his|their)|in a row)')
        AND NOT regexp_matches(' ' || claims.later, '^ (of|- of) (his|their|the) ')
) AS readings
WHERE reading = 1
