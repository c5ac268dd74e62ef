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

#endif /* LIBREPLAY_LIMITS_H */
