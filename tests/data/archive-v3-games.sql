-- archive-v3-games.sql - the games' tables as schema/archive.sql wrote them
-- in its steps 1 (Avalon's) and 2 (Shadows over Camelot's) until the
-- games declared them as data (struct rpl__table, games/game.h): the text
-- those released steps ran, byte for byte, which the tests run after the
-- schema's own steps to make an archive as version 3 made it.

-- One row per quest played, in time order (Avalon).
CREATE TABLE quest (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    round INTEGER NOT NULL,      -- 1..5 in time order
    slot INTEGER NOT NULL,       -- the board's quest space (= round
                                 -- without Targeting)
    leader INTEGER NOT NULL,     -- who proposed the team that went
    team TEXT NOT NULL,          -- "p1,p3,p5"
    result TEXT NOT NULL         -- "success" or "fail"
        CHECK (result IN ('success', 'fail')),
    fails INTEGER NOT NULL,      -- Fail cards played (public)
    PRIMARY KEY (gid, round)
) WITHOUT ROWID;

-- One row per quest card (Avalon), known once opened: who failed which
-- quest.
CREATE TABLE card (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    card TEXT NOT NULL           -- "success" or "fail"
        CHECK (card IN ('success', 'fail')),
    PRIMARY KEY (gid, round, seat)
) WITHOUT ROWID;

-- One row per use of the Lady of the Lake (Avalon).
CREATE TABLE lady (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    round INTEGER NOT NULL,      -- the round whose quest had just ended
    holder INTEGER NOT NULL,
    target INTEGER NOT NULL,
    result TEXT                  -- "good" or "evil"; NULL until revealed
        CHECK (result IN ('good', 'evil')),
    PRIMARY KEY (gid, round)
) WITHOUT ROWID;

-- The assassination (Avalon), when the game came to it.
CREATE TABLE assassination (
    gid INTEGER PRIMARY KEY REFERENCES game (gid) ON DELETE CASCADE,
    assassin INTEGER NOT NULL,
    target INTEGER NOT NULL,
    hit INTEGER                  -- 1: the target was Merlin; NULL until
        CHECK (hit IN (0, 1))    -- the `end` line says
);

-- One row per game of Shadows over Camelot: the board where the log
-- ends, and the traitor.
CREATE TABLE soc_game (
    gid INTEGER PRIMARY KEY REFERENCES game (gid) ON DELETE CASCADE,
    white INTEGER NOT NULL,      -- white swords on the Round Table (after
                                 -- the flip, when there was one)
    black INTEGER NOT NULL,      -- black swords
    siege INTEGER NOT NULL,      -- siege engines around Camelot
    won INTEGER NOT NULL,        -- quests the knights won
    lost INTEGER NOT NULL,       -- quests evil won
    traitor INTEGER,             -- the seat dealt the traitor card; 0 when
                                 -- nobody was; NULL while unknown
    -- How the traitor came out: "accusation" (accused), "fate" (he played
    -- Fate), "last" (the last knight alive), "flip" (at the end of a
    -- game of 12 swords) or "never"; NULL while unknown, or when nobody
    -- was dealt the traitor card.
    revealed TEXT
        CHECK (revealed IN ('accusation', 'fate', 'last', 'flip', 'never')),
    revealed_line INTEGER        -- the `shows` or `flip` line that showed
                                 -- him; NULL for "never"
);

-- One row per quest that ended, in time order.
CREATE TABLE soc_quest (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    n INTEGER NOT NULL,          -- 1.. in time order
    line INTEGER NOT NULL,       -- the `quest` line
    quest TEXT NOT NULL          -- the place token
        CHECK (quest IN ('black_knight', 'lancelot', 'dragon',
                         'excalibur', 'grail', 'picts', 'saxons')),
    result TEXT NOT NULL         -- for the knights
        CHECK (result IN ('won', 'lost')),
    swords INTEGER NOT NULL,     -- laid: white when won, black when lost
    relic INTEGER,               -- the seat that took the quest's relic
    PRIMARY KEY (gid, n)
) WITHOUT ROWID;
CREATE INDEX soc_quest_result ON soc_quest (quest, result);

-- One row per accusation: who accused whom, and what the accused showed.
CREATE TABLE soc_accusation (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    line INTEGER NOT NULL,       -- the `accuse` line
    accuser INTEGER NOT NULL,
    accused INTEGER NOT NULL,
    shown TEXT NOT NULL          -- the `shows` line that answered it
        CHECK (shown IN ('loyal', 'traitor')),
    PRIMARY KEY (gid, line)
) WITHOUT ROWID;

-- One row per seat of a game of Shadows over Camelot.
CREATE TABLE soc_seat (
    gid INTEGER NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    seat INTEGER NOT NULL,       -- 1..players
    knight TEXT NOT NULL,        -- "arthur", "galahad", ... (`start`)
    -- The seat's loyalty card, "loyal" or "traitor"; NULL until known:
    -- shown in the game, revealed, or every seat loyal with traitor=off.
    loyalty TEXT CHECK (loyalty IN ('loyal', 'traitor')),
    died INTEGER,                -- the `dies` line, NULL if he lived
    PRIMARY KEY (gid, seat)
) WITHOUT ROWID;
