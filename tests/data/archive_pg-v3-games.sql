-- archive_pg-v3-games.sql - the games' tables as schema/archive_pg.sql wrote them
-- in its steps 1 (Avalon's) and 2 (Shadows over Camelot's) until the
-- games declared them as data (struct rpl__table, games/game.h): the text
-- those released steps ran, byte for byte, which the tests run after the
-- schema's own steps to make an archive as version 3 made it.

-- One row per quest played, in time order (Avalon).
CREATE TABLE quest (
    gid bigint NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    round integer NOT NULL,      -- 1..5 in time order
    slot integer NOT NULL,       -- the board's quest space (= round
                                 -- without Targeting)
    leader integer NOT NULL,     -- who proposed the team that went
    team text COLLATE "C" NOT NULL,          -- "p1,p3,p5"
    result text COLLATE "C" NOT NULL         -- "success" or "fail"
        CHECK (result IN ('success', 'fail')),
    fails integer NOT NULL,      -- Fail cards played (public)
    PRIMARY KEY (gid, round)
);

-- One row per quest card (Avalon), known once opened: who failed which
-- quest.
CREATE TABLE card (
    gid bigint NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    round integer NOT NULL,
    seat integer NOT NULL,
    card text COLLATE "C" NOT NULL           -- "success" or "fail"
        CHECK (card IN ('success', 'fail')),
    PRIMARY KEY (gid, round, seat)
);

-- One row per use of the Lady of the Lake (Avalon).
CREATE TABLE lady (
    gid bigint NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    round integer NOT NULL,      -- the round whose quest had just ended
    holder integer NOT NULL,
    target integer NOT NULL,
    result text COLLATE "C"                  -- "good" or "evil"; NULL until revealed
        CHECK (result IN ('good', 'evil')),
    PRIMARY KEY (gid, round)
);

-- The assassination (Avalon), when the game came to it.
CREATE TABLE assassination (
    gid bigint PRIMARY KEY REFERENCES game (gid) ON DELETE CASCADE,
    assassin integer NOT NULL,
    target integer NOT NULL,
    hit integer                  -- 1: the target was Merlin; NULL until
        CHECK (hit IN (0, 1))    -- the `end` line says
);

-- One row per game of Shadows over Camelot: the board where the log
-- ends, and the traitor.
CREATE TABLE soc_game (
    gid bigint PRIMARY KEY REFERENCES game (gid) ON DELETE CASCADE,
    white integer NOT NULL,      -- white swords on the Round Table (after
                                 -- the flip, when there was one)
    black integer NOT NULL,      -- black swords
    siege integer NOT NULL,      -- siege engines around Camelot
    won integer NOT NULL,        -- quests the knights won
    lost integer NOT NULL,       -- quests evil won
    traitor integer,             -- the seat dealt the traitor card; 0 when
                                 -- nobody was; NULL while unknown
    -- How the traitor came out: "accusation" (accused), "fate" (he played
    -- Fate), "last" (the last knight alive), "flip" (at the end of a
    -- game of 12 swords) or "never"; NULL while unknown, or when nobody
    -- was dealt the traitor card.
    revealed text COLLATE "C"
        CHECK (revealed IN ('accusation', 'fate', 'last', 'flip', 'never')),
    revealed_line integer        -- the `shows` or `flip` line that showed
                                 -- him; NULL for "never"
);

-- One row per quest that ended, in time order.
CREATE TABLE soc_quest (
    gid bigint NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    n integer NOT NULL,          -- 1.. in time order
    line integer NOT NULL,       -- the `quest` line
    quest text COLLATE "C" NOT NULL          -- the place token
        CHECK (quest IN ('black_knight', 'lancelot', 'dragon',
                         'excalibur', 'grail', 'picts', 'saxons')),
    result text COLLATE "C" NOT NULL         -- for the knights
        CHECK (result IN ('won', 'lost')),
    swords integer NOT NULL,     -- laid: white when won, black when lost
    relic integer,               -- the seat that took the quest's relic
    PRIMARY KEY (gid, n)
);
CREATE INDEX soc_quest_result ON soc_quest (quest, result);

-- One row per accusation: who accused whom, and what the accused showed.
CREATE TABLE soc_accusation (
    gid bigint NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    line integer NOT NULL,       -- the `accuse` line
    accuser integer NOT NULL,
    accused integer NOT NULL,
    shown text COLLATE "C" NOT NULL          -- the `shows` line that answered it
        CHECK (shown IN ('loyal', 'traitor')),
    PRIMARY KEY (gid, line)
);

-- One row per seat of a game of Shadows over Camelot.
CREATE TABLE soc_seat (
    gid bigint NOT NULL REFERENCES game (gid) ON DELETE CASCADE,
    seat integer NOT NULL,       -- 1..players
    knight text COLLATE "C" NOT NULL,        -- "arthur", "galahad", ... (`start`)
    -- The seat's loyalty card, "loyal" or "traitor"; NULL until known:
    -- shown in the game, revealed, or every seat loyal with traitor=off.
    loyalty text COLLATE "C" CHECK (loyalty IN ('loyal', 'traitor')),
    died integer,                -- the `dies` line, NULL if he lived
    PRIMARY KEY (gid, seat)
);
