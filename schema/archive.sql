-- archive.sql - the schema of a camelog archive (camelog-archive(1)).
--
-- An archive is one SQLite database holding many games: each log itself
-- (the gzip file, so the archive alone reproduces every file) and an
-- index of what the log says, for queries and statistics.  The index is
-- derived from the logs alone: `camelog archive check` rebuilds it from
-- the stored logs and compares.
--
-- This file is the only copy of the schema's own tables; the build
-- embeds it.  It is a sequence of steps, each opened by a line
-- "-- version N" (N = 1, 2, ...).  PRAGMA user_version holds the version
-- of an archive: a new archive runs every step; an older one runs the
-- steps after its version, all in one transaction that also sets
-- user_version, so an archive is always at one version or the next,
-- never in between.  A step, once released, is never edited: a change is
-- a new step.
--
-- Whose tables: game, log, rule, seat and game_variant (and the view
-- seat_result) are the archive's own, the common rows of every game,
-- written here.  The games' tables are not: each game declares its own as
-- data, in its folder (struct rpl__table, libreplay/games/game.h: name,
-- columns with type, NOT NULL and allowed values, key, indexes, a line on
-- each), and the backend writes them in its SQL (libreplay/archive/
-- schema.c; here "WITHOUT ROWID" for a table keyed by more than gid).
-- Avalon's are quest, card, lady and assassination (games/avalon/
-- index.c writes them, games/avalon/stats.c reads them); Shadows over
-- Camelot's are soc_game, soc_quest, soc_accusation and soc_seat
-- (games/soc/).  The archive's code names none of a game's tables or
-- tokens: a game writes and reads its rows through the hooks of
-- games/game.h, and the statistics never count two games' sides together.
--
-- Versions and the games' tables: a game's table names the step that
-- creates it (its "since"), and step N is its text below, then the DROP
-- of each game's table whose "until" is N, then the CREATE of each whose
-- "since" is N.  Avalon's tables come with step 1, those of Shadows over
-- Camelot with step 2, as they always did: until version 3 these steps
-- held their CREATE TABLE as text, the same tables (tests/data/
-- archive-v3.sql keeps that text, and the tests prove an archive made by
-- it is one of this library's, checked clean).  So an archive of any
-- version keeps working unchanged, a new one gets the same tables, and
-- the current form of a game's table is written once, by the game.  A
-- game's table is never altered in place: a change is a new step N whose
-- text may be nothing but a comment, the old declaration given until = N
-- and a new one (the same name) since = N; opening the archive for
-- writing drops the old table, creates the new one and indexes every
-- stored log again, which fills it (the index is derived from the logs).
-- A new game's tables come with a new step in the same way.  The
-- comparison of an archive's schema with this library's (`archive
-- check`) reads the text of each object without its comments.

-- Conventions:
-- - gid is the row id of a game in this archive (not stable across
--   archives); every other table refers to game(gid) and goes with it.
-- - Seats are numbers 1..N (p1..pN); a set of seats is written as in
--   the log, "p1,p3,p5", strictly ascending.
-- - What is secret until the reveal (roles, sides, quest cards, Lady
--   results) is NULL while the archive holds a log without its reveal.
-- - Texts are the log's own tokens: games "avalon", "soc"; winners
--   "good", "evil" (Avalon), "knights", "evil" (Shadows over Camelot),
--   "aborted"; reasons as on the `end` line; quests, knights and cards
--   of Shadows over Camelot as camelog-soc(7) spells them.
-- - What the log makes public is indexed as soon as it is there: in
--   Shadows over Camelot the knights (`start`), the quests, the
--   accusations and a traitor who comes out before the end.
--
-- Useful joins for `camelog archive sql`:
--   every game where Alice was Merlin:
--     SELECT g.id, g.created, g.winner FROM game g JOIN seat s USING (gid)
--      WHERE s.name = 'Alice' AND s.role = 'merlin';
--   who failed which quest:
--     SELECT g.id, c.round, s.name FROM card c JOIN game g USING (gid)
--       JOIN seat s ON s.gid = c.gid AND s.seat = c.seat
--      WHERE c.card = 'fail';
--   who was the traitor, and how he came out (Shadows over Camelot):
--     SELECT g.id, s.name, s.knight, x.revealed, x.revealed_line
--       FROM soc_game x JOIN game g USING (gid)
--       JOIN soc_seat s ON s.gid = x.gid AND s.seat = x.traitor;
--   how often the knights win the Grail:
--     SELECT result, count(*) FROM soc_quest WHERE quest = 'grail'
--      GROUP BY result;

-- version 1

-- One row per stored log.  (id, seal) identifies a log: the game id and
-- BLAKE2b-256 of its last line, the seal that signs all the lines before
-- it.  A later log of the same game (the same lines and more, e.g. the
-- reveal after `end`) replaces the earlier one.
CREATE TABLE game (
    gid INTEGER PRIMARY KEY,
    game TEXT NOT NULL,          -- the `game` line: "avalon", "soc"
    id TEXT NOT NULL             -- the `id` line: 32 lowercase hex digits
        CHECK (length(id) = 32),
    seal BLOB NOT NULL           -- BLAKE2b-256 of the final seal line
        CHECK (length(seal) = 32),
    created TEXT,                -- the `created` line, NULL when absent
    rules TEXT NOT NULL,         -- the `rules` line after "rules "
    players INTEGER NOT NULL,    -- number of seats
    dealer TEXT NOT NULL,        -- the dealer's public key (base64)
    progress TEXT NOT NULL       -- how far the log goes
        CHECK (progress IN ('in_progress', 'finished', 'complete')),
    imported INTEGER NOT NULL    -- 1: roles dealt outside camelog
        CHECK (imported IN (0, 1)),
    source TEXT,                 -- imported: the system it comes from and
    source_id TEXT,              -- its id there (the `import` line)
    winner TEXT,                 -- the `end` line's winner; NULL before it
    reason TEXT,                 -- the `end` line's reason; NULL before it
    leader INTEGER,              -- the first leader (`start`); NULL before
    rounds INTEGER NOT NULL,     -- quests played
    proposals INTEGER NOT NULL,  -- teams proposed
    lines INTEGER NOT NULL,      -- lines of the log
    seals INTEGER NOT NULL,      -- seals verified
    sigs INTEGER NOT NULL,       -- seat signatures verified
    UNIQUE (id, seal)
);
CREATE INDEX game_created ON game (created);
CREATE INDEX game_players ON game (players, winner);

-- The log itself: one gzip member as camelog writes it (MTIME 0, no
-- name), whose text is the canonical text of the log.  Kept apart from
-- game so that scans of the index never read it.
CREATE TABLE log (
    gid INTEGER PRIMARY KEY REFERENCES game (gid) ON DELETE CASCADE,
    text_len INTEGER NOT NULL,   -- bytes of canonical text
    gz BLOB NOT NULL             -- the .camelog file, byte for byte
);

-- The rules line as key=value pairs (Avalon: players, roles, lady,
-- targeting), for grouping by options.
CREATE TABLE rule (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (gid, key)
) WITHOUT ROWID;

-- One row per seat.  role and side are known once the log is revealed.
-- side is "good" or "evil" in every game: Avalon's sides; in Shadows over
-- Camelot a loyal knight is good and the traitor evil, and role is the
-- knight ("arthur").
CREATE TABLE seat (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    seat INTEGER NOT NULL,       -- 1..players
    name TEXT NOT NULL,          -- display name, unescaped UTF-8
    key TEXT,                    -- the seat's public key, NULL if none
    role TEXT,                   -- NULL until revealed
    side TEXT,                   -- NULL until revealed
    PRIMARY KEY (gid, seat)
) WITHOUT ROWID;
CREATE INDEX seat_name ON seat (name, role, side);

-- Avalon's tables, quest, card, lady and assassination, come after this
-- step's text: libreplay/games/avalon/index.c declares them (since 1).

-- Each seat with its game's outcome: won is 1 or 0 once the seat's side
-- and the winner are known, NULL otherwise (and for an abandoned game).
-- The winner "knights" (Shadows over Camelot) is the good side.
CREATE VIEW seat_result AS
SELECT s.gid, s.seat, s.name, s.role, s.side, g.game, g.players,
       g.winner, g.reason,
       CASE WHEN s.side IS NULL OR g.winner IS NULL
                 OR g.winner NOT IN ('good', 'knights', 'evil') THEN NULL
            WHEN s.side = (CASE g.winner WHEN 'evil' THEN 'evil'
                           ELSE 'good' END) THEN 1
            ELSE 0 END AS won
  FROM seat s JOIN game g USING (gid);

-- version 2

-- Shadows over Camelot (game "soc", camelog-soc(7)).  Besides these
-- tables, a game of it fills the common ones: game.leader is the first
-- player and game.rounds the quests that ended; seat.role is the seat's
-- knight ("arthur"), public from the `start` line, and seat.side "good"
-- for a loyal knight, "evil" for the traitor, once his loyalty card is
-- known (the knights' win is the good side's, as in seat_result).  An archive of version 1
-- is migrated by this step and by indexing again, in the same
-- transaction, every game of Shadows over Camelot it holds.

-- Its tables, soc_game, soc_quest (and its index soc_quest_result),
-- soc_accusation and soc_seat, come after this step's text:
-- libreplay/games/soc/index.c declares them (since 2).

-- version 3

-- The house rules each game declares (camelog-avalon(7), Variants): one
-- row per variant, as rpl_log_variants() reads them from the rules line
-- through the game that owns its notation, in the order the line lists
-- them; no row for a game under its official rules.  An archive of
-- version 2 is migrated by this step and by indexing again, in the same
-- transaction, every game it holds.
--   how many games used each variant:
--     SELECT variant, count(*) FROM game_variant GROUP BY variant;
--   the games under the official rules:
--     SELECT g.id FROM game g WHERE g.gid NOT IN
--       (SELECT gid FROM game_variant);
CREATE TABLE game_variant (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    n INTEGER NOT NULL,          -- 1.. in the rules line's order
    variant TEXT NOT NULL,       -- the variant's name: "assassin-mordred"
    PRIMARY KEY (gid, n)
) WITHOUT ROWID;
CREATE INDEX game_variant_name ON game_variant (variant, gid);
