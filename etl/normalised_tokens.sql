-- normalised_tokens(text): the one rule by which TOKENS that differ from the text are still taken as the same
-- tokens (accepted with a warning, by build, refresh and evaluate alike). Two strings are the same tokens when
-- they are equal after:
--   * case: lower() (Unicode-aware);
--   * dashes: every Unicode dash or minus (U+2010 ‐, U+2011 ‑, U+2012 ‒, U+2013 –, U+2014 —, U+2015 ―,
--     U+2212 −, U+FE58 ﹘, U+FE63 ﹣, U+FF0D －) becomes the hyphen-minus '-';
--   * quotes: U+2018 ‘, U+2019 ’, U+201A ‚, U+201B ‛, U+2032 ′, U+FF07 ＇ and the grave ` become the apostrophe ''';
--     U+201C “, U+201D ”, U+201E „, U+201F ‟, U+2033 ″, U+FF02 ＂ become the quotation mark '"';
--   * spacing: every white space and Unicode space separator (\s and \p{Z}: tabs, no-break and thin spaces …)
--     is removed, so '113-107' is the tokens '113 - 107' and 'LeBron James' the tokens 'LeBron   James'.
-- Nothing else is normalised: a different letter, digit or punctuation mark is a real mismatch.
CREATE OR REPLACE TEMP MACRO normalised_tokens(text) AS
    regexp_replace(
        translate(lower(text), '‐‑‒–—―−﹘﹣－‘’‚‛′＇`“”„‟″＂', '----------''''''''''''''""""""'),
        '[\s\p{Z}]+', '', 'g');
