/*
 * limits.h - every bound the library puts on untrusted input, with the
 * reason for its value.  Readers accept at least these; writers stay
 * within them (camelog(5), "Limits").  Hitting one is RPL_E_LIMIT and
 * the message names the limit.
 */
#ifndef LIBREPLAY_LIMITS_H
#define LIBREPLAY_LIMITS_H

/* A whole game compresses to a few KiB; 1 MiB leaves room for the
 * longest games of every module with every seat signing. */
#define RPL_MAX_COMPRESSED (1024u * 1024u)

/* Inflate stops here whatever the ratio, so a zip bomb costs at most
 * this much memory. */
#define RPL_MAX_TEXT (16u * 1024u * 1024u)

/* The longest canonical line (a seat line with a 64-byte name escaped
 * and a key, a seal) is far below this. */
#define RPL_MAX_LINE 4096u

/* The longest game of any module is under 5,000 lines. */
#define RPL_MAX_LINES 100000u

/* The most seats of any game (struct rpl_game_info max_seats, which
 * tests/test_games.c holds to this bound). */
#define RPL_MAX_SEATS 10u

/* Seat display names: bytes of UTF-8 once unescaped. */
#define RPL_MAX_NAME 64u

/* Tokens on one line (keyword included). */
#define RPL_MAX_TOKENS 24u

/* Warnings kept per verification (more are counted, not stored). */
#define RPL_MAX_WARNINGS 64u

/* Key and secret-key files are a few lines; anything longer is not one. */
#define RPL_MAX_KEYFILE 4096u

/* A record of another system (rpl_import()): the games of the
 * records of the dataset imported so far are under 12 KiB. */
#define RPL_MAX_RECORD (1024u * 1024u)

/* ------------------------------------------------- the archive (SQLite)
 * An archive may come from anyone, and `camelog archive sql` runs what
 * its user types: every connection gets these limits (sqlite3_limit()),
 * and each statement a step budget (a progress handler), so that no
 * statement, view or recursive query runs for ever or fills memory.
 * Hitting one is RPL_E_LIMIT (the budget, a value too long) or
 * RPL_E_ARG (a statement SQLite refuses to prepare), the message naming
 * the limit. */

/* The longest string or blob: a stored log is at most
 * RPL_MAX_COMPRESSED, and its hex text in `archive sql` twice that;
 * four times leaves room for group_concat() over a result. */
#define RPL_MAX_SQL_VALUE (4u * RPL_MAX_COMPRESSED)

/* The longest SQL statement: the schema's longest is under 3 KiB, a
 * statement a person types a few hundred bytes. */
#define RPL_MAX_SQL_TEXT (64u * 1024u)

/* Columns of a table, an index or a result: the widest table (game) has
 * 20. */
#define RPL_MAX_SQL_COLUMNS 100u

/* Depth of an expression tree: the library's deepest is under 10. */
#define RPL_MAX_SQL_DEPTH 100u

/* Terms of a compound SELECT (UNION ...). */
#define RPL_MAX_SQL_COMPOUND 50u

/* Instructions of one prepared statement's program: the statistics'
 * longest is under 1,000. */
#define RPL_MAX_SQL_OPS 50000u

/* Arguments of one function call. */
#define RPL_MAX_SQL_ARGS 32u

/* Bytes of a LIKE or GLOB pattern. */
#define RPL_MAX_SQL_PATTERN 1000u

/* Parameters of one statement: the library binds at most 20. */
#define RPL_MAX_SQL_PARAMS 100u

/* Virtual machine steps of one statement (the progress handler counts
 * them, RPL_SQL_STEP_TICK at a time), with the statements it runs
 * meanwhile (a query's seats, check's rows): a base and a share per page
 * of the archive, so the budget grows with the archive, never with the
 * time a statement takes.  Steps are deterministic where a time budget
 * is not, and the library reads no clock.  Statistics take about 1,100
 * steps per page (470 per game), check 3,200 per page; 100,000 is
 * thirty times that, and SQLite runs about 8e7 steps a second. */
#define RPL_MAX_SQL_STEPS          10000000u
#define RPL_MAX_SQL_STEPS_PER_PAGE 100000u
#define RPL_SQL_STEP_TICK          1000u

/* What one statement typed to rpl_archive_sql() (`camelog archive sql`)
 * may take besides its steps, since one step can be worth millions when
 * its values are long (a join of long strings, an aggregate of them):
 * the memory SQLite holds in the process may grow by at most
 * RPL_MAX_SQL_HEAP while it runs, and it may run for at most
 * RPL_MAX_SQL_SECONDS (the one limit read from a clock, so that no
 * typed statement runs longer; the library's own statements keep the
 * step budget alone and give the same answer on every machine).  The
 * progress handler checks both every RPL_SQL_TYPED_TICK steps, so a
 * row of a join of long strings cannot add much between two checks. */
#define RPL_MAX_SQL_HEAP    (64u * 1024u * 1024u)
#define RPL_MAX_SQL_SECONDS 10u
#define RPL_SQL_TYPED_TICK  100u

/* Bytes of a checkpoint (a signed note): the body is under 340 bytes
 * and a signature line under 360; 64 KiB leaves room for a hundred
 * witness cosignatures, the most a note may carry. */
#define RPL_MAX_TLOG_NOTE 65536u

/* Bytes of a proof's text: RPL_TLOG_PROOF_MAX hashes of 50 bytes a line
 * and four lines of sizes. */
#define RPL_MAX_TLOG_PROOF_TEXT 8192u

/* Bytes of the state file of a log directory: three short lines. */
#define RPL_MAX_TLOG_STATE 512u

#endif /* LIBREPLAY_LIMITS_H */
