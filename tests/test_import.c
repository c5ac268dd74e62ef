/*
 * test_import.c - records of other systems (rpl_import()): a good
 * avalongame.online record imports as a complete, verified, imported
 * log, the same seed gives the same bytes and the game id comes from
 * the record's name alone; every kind of refusal names its category, the
 * field at fault and its status; the size limit at its value and one
 * past it; bad arguments; files that cannot be read; and every
 * allocation failing in turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "failalloc.h"
#include "internal.h"
#include "suites.h"

/* tests/data/import/good-5.json, compact: a 5-player game with Merlin,
 * Percival and Morgana that Good wins when the assassination misses. */
static const char GOOD[] =
    "{\"players\":[{\"name\":\"ALICE\",\"uid\":\"uid-0\"},{\"name\":\"BOB\","
    "\"uid\":\"uid-"
    "1\"},{\"name\":\"CAROL\",\"uid\":\"uid-2\"},{\"name\":\"DAVE\",\"uid\":"
    "\"uid-3\"},{\"n"
    "ame\":\"ERIN\",\"uid\":\"uid-4\"}],\"missions\":[{\"state\":\"SUCCESS\","
    "\"teamSize"
    "\":2,\"failsRequired\":1,\"team\":[\"ALICE\",\"BOB\"],\"proposals\":[{"
    "\"proposer"
    "\":\"CAROL\",\"team\":[\"ALICE\",\"BOB\"],\"votes\":[\"ALICE\",\"BOB\","
    "\"CAROL\"],\"st"
    "ate\":\"APPROVED\"}],\"numFails\":0},{\"state\":\"FAIL\",\"teamSize\":3,"
    "\"failsR"
    "equired\":1,\"team\":[\"ERIN\",\"BOB\",\"CAROL\"],\"proposals\":[{"
    "\"proposer\":\"D"
    "AVE\",\"team\":[\"DAVE\",\"ERIN\",\"ALICE\"],\"votes\":[\"DAVE\",\"ERIN\"]"
    ",\"state\":"
    "\"REJECTED\"},{\"proposer\":\"ERIN\",\"team\":[\"ERIN\",\"BOB\",\"CAROL\"]"
    ",\"votes\""
    ":[\"ERIN\",\"CAROL\",\"BOB\"],\"state\":\"APPROVED\"}],\"numFails\":1},{"
    "\"state\":"
    "\"SUCCESS\",\"teamSize\":2,\"failsRequired\":1,\"team\":[\"ALICE\","
    "\"DAVE\"],\"pr"
    "oposals\":[{\"proposer\":\"ALICE\",\"team\":[\"ALICE\",\"DAVE\"],"
    "\"votes\":[\"ALIC"
    "E\",\"DAVE\",\"BOB\",\"CAROL\"],\"state\":\"APPROVED\"}],\"numFails\":0},{"
    "\"state\""
    ":\"SUCCESS\",\"teamSize\":3,\"failsRequired\":1,\"team\":[\"ALICE\","
    "\"BOB\",\"DAV"
    "E\"],\"proposals\":[{\"proposer\":\"BOB\",\"team\":[\"ALICE\",\"BOB\","
    "\"DAVE\"],\"vo"
    "tes\":[\"ALICE\",\"BOB\",\"DAVE\"],\"state\":\"APPROVED\"}],\"numFails\":"
    "0},{\"sta"
    "te\":\"PENDING\",\"teamSize\":0,\"failsRequired\":1,\"team\":[],"
    "\"proposals\":["
    "]}],\"outcome\":{\"state\":\"GOOD_WIN\",\"message\":\"Three successful "
    "missio"
    "ns\",\"assassinated\":\"DAVE\",\"roles\":[{\"name\":\"ALICE\",\"role\":"
    "\"MERLIN\",\""
    "assassin\":false},{\"name\":\"BOB\",\"role\":\"LOYAL "
    "FOLLOWER\",\"assassin\":fa"
    "lse},{\"name\":\"CAROL\",\"role\":\"EVIL "
    "MINION\",\"assassin\":true},{\"name\":\""
    "DAVE\",\"role\":\"PERCIVAL\",\"assassin\":false},{\"name\":\"ERIN\","
    "\"role\":\"MOR"
    "GANA\",\"assassin\":false}],\"votes\":[{\"ALICE\":true,\"BOB\":true},{"
    "\"ERIN\":"
    "false,\"BOB\":true,\"CAROL\":true},{\"ALICE\":true,\"DAVE\":true},{"
    "\"ALICE\":t"
    "rue,\"BOB\":true,\"DAVE\":true}]},\"timeCreated\":{\"_seconds\":"
    "1700000000,\""
    "_nanoseconds\":0},\"timeFinished\":{\"_seconds\":1700001800,\"_nanoseconds"
    "\":0},\"options\":{\"inGameLog\":false}}";

static struct rpl_seckey *
dealer_key(struct rpl_ctx *ctx)
{
    uint8_t seed[32];
    struct rpl_seckey *sk = NULL;

    for (size_t i = 0; i < sizeof(seed); i++)
        seed[i] = (uint8_t)i;
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    return sk;
}

static const uint8_t SEED[] = {0x01};

static struct rpl_import_opts
seeded(const struct rpl_seckey *sk)
{
    struct rpl_import_opts o;

    memset(&o, 0, sizeof(o));
    o.dealer = sk;
    o.seed = SEED;
    o.seed_len = sizeof(SEED);
    return o;
}

/* GOOD with the first occurrence of from replaced by to (malloc). */
static char *
edit(const char *from, const char *to)
{
    const char *at = strstr(GOOD, from);
    const size_t len = strlen(GOOD) - strlen(from) + strlen(to);
    char *out = malloc(len + 1);

    ck_assert_ptr_nonnull(at);
    ck_assert_ptr_nonnull(out);
    memcpy(out, GOOD, (size_t)(at - GOOD));
    strcpy(out + (at - GOOD), to);
    strcat(out, at + strlen(from));
    return out;
}

/* GOOD with every occurrence of from replaced by to (malloc). */
static char *
edit_all(const char *from, const char *to)
{
    const size_t nf = strlen(from), nt = strlen(to);
    size_t n = 0, len;
    const char *p;
    char *out, *w;

    for (p = strstr(GOOD, from); p; p = strstr(p + nf, from)) {
        n++;
    }
    len = strlen(GOOD) + n * nt - n * nf;
    out = malloc(len + 1);
    ck_assert_ptr_nonnull(out);
    w = out;
    for (p = GOOD;;) {
        const char *at = strstr(p, from);

        if (!at) {
            strcpy(w, p);
            break;
        }
        memcpy(w, p, (size_t)(at - p));
        w += at - p;
        memcpy(w, to, nt);
        w += nt;
        p = at + nf;
    }
    return out;
}

START_TEST(test_formats)
{
    const struct rpl_import_category *c;
    size_t n = 0;

    ck_assert(rpl_import_has_format("avalongame"));
    ck_assert(!rpl_import_has_format("lichess"));
    ck_assert(!rpl_import_has_format(""));
    ck_assert_ptr_null(rpl_import_category("avalongame", 0));
    ck_assert_ptr_null(rpl_import_category("lichess", 1));
    while ((c = rpl_import_category("avalongame", n + 1))) {
        ck_assert(c->key[0] != '\0' && c->text[0] != '\0');
        ck_assert_uint_eq(rpl_import_category_find("avalongame", c->key),
                          n + 1);
        n++;
    }
    ck_assert_uint_eq(n, 24);
    ck_assert_str_eq(rpl_import_category("avalongame", 1)->key, "read");
    /* Every format has the categories the door and its callers use. */
    ck_assert_uint_ne(rpl_import_category_find("avalongame", "read"), 0);
    ck_assert_uint_ne(rpl_import_category_find("avalongame", "size"), 0);
    ck_assert_uint_ne(rpl_import_category_find("avalongame", "invalid"), 0);
    ck_assert_uint_ne(rpl_import_category_find("avalongame", "exists"), 0);
    ck_assert_uint_ne(rpl_import_category_find("avalongame", "write"), 0);
    ck_assert_uint_ne(rpl_import_category_find("avalongame", "internal"), 0);
    ck_assert_uint_eq(rpl_import_category_find("avalongame", "nope"), 0);
    ck_assert_uint_eq(rpl_import_category_find("lichess", "read"), 0);
}
END_TEST

START_TEST(test_good)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *a = NULL, *b = NULL, *r = NULL;
    struct rpl_error err;
    const char *ta, *tb;
    size_t la = 0, lb = 0, len = 0;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    sk = dealer_key(ctx);
    o = seeded(sk);
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "some/dir/good-5.json", GOOD,
                                strlen(GOOD), &o, &a, &rep, &err),
                     RPL_OK);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(err.code, RPL_OK);
    ck_assert_uint_eq(rep.category, 0);
    ck_assert_str_eq(rep.name, "good-5");
    ck_assert_str_eq(rep.reason, "");
    ck_assert_str_eq(rep.field, "");
    ck_assert_int_eq(rep.log.error.code, RPL_OK);
    ck_assert_int_eq(rep.log.progress, RPL_PROGRESS_COMPLETE);
    ck_assert(rep.log.is_imported);
    ck_assert(rep.log.is_key_pinned);
    ck_assert_str_eq(rep.log.game, "avalon");
    ck_assert_str_eq(rep.log.winner, "good");
    ck_assert_str_eq(rep.log.reason, "missed");
    ck_assert_uint_eq(rpl_log_seats(a), 5);
    ck_assert_str_eq(rpl_log_seat_name(a, 1), "ALICE");
    ck_assert_ptr_nonnull(strstr(rpl_log_line(a, 5, &len), "import "));
    ck_assert_int_eq(memcmp(rpl_log_line(a, 5, &len),
                            "import avalongame.online good-5", len),
                     0);

    /* The same seed, the same bytes. */
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "good-5", GOOD, strlen(GOOD),
                                &o, &b, &rep, &err),
                     RPL_OK);
    ta = rpl_log_text(a, &la);
    tb = rpl_log_text(b, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert_int_eq(memcmp(ta, tb, la), 0);

    /* A random secret: other commitments, the same game id. */
    o.seed = NULL;
    o.seed_len = 0;
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "good-5.json", GOOD,
                                strlen(GOOD), &o, &r, &rep, &err),
                     RPL_OK);
    tb = rpl_log_text(r, &lb);
    ck_assert(la != lb || memcmp(ta, tb, la) != 0);
    ck_assert_int_eq(
        memcmp(rpl_log_line(a, 3, &len), rpl_log_line(r, 3, &lb), len), 0);

    rpl_log_free(a);
    rpl_log_free(b);
    rpl_log_free(r);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

/* One refusal for each way a record goes wrong: the edit of GOOD, the
 * category, the field and the status. */
static const struct refusal_case {
    const char *from, *to;
    const char *key;
    const char *field;
    enum rpl_status status;
    const char *reason; /* a part of it */
} REFUSALS[] = {
    {"{\"players\"", "[{\"players\"", "syntax", "", RPL_E_SYNTAX,
     "not JSON: line 1"},
    {"\"players\":[", "\"players\":{\"x\":1},\"p\":[", "shape", "players",
     RPL_E_SYNTAX, "players: expected an array, got an object"},
    {"{\"name\":\"ALICE\",\"uid\":\"uid-0\"},", "", "players", "players",
     RPL_E_RULES, "4 players; the rules are for 5 to 10 (H-1)"},
    {"\"name\":\"BOB\",\"uid\"", "\"name\":\"ALICE\",\"uid\"", "name",
     "players[1].name", RPL_E_UNSUPPORTED, "two players are named"},
    {"\"MORGANA\"", "\"LANCELOT\"", "role", "outcome.roles[4].role",
     RPL_E_RULES, "is not a character of the official game (H-6)"},
    /* Several flags and an assassination: who named the target? */
    {"\"role\":\"MORGANA\",\"assassin\":false",
     "\"role\":\"EVIL MINION\",\"assassin\":true", "assassins", "outcome.roles",
     RPL_E_RULES,
     "2 seats have the assassin flag (CAROL and ERIN); the record does not "
     "say which of them named DAVE"},
    {"\"role\":\"MORGANA\",\"assassin\":false",
     "\"role\":\"MORGANA\",\"assassin\":true", "assassins", "outcome.roles",
     RPL_E_RULES, "(CAROL and ERIN)"},

    {"\"role\":\"LOYAL FOLLOWER\",\"assassin\":false",
     "\"role\":\"LOYAL FOLLOWER\",\"assassin\":true", "record",
     "outcome.roles[1].assassin", RPL_E_RULES,
     "only an evil role can hold the Assassin's power"},
    {"\"role\":\"EVIL MINION\",\"assassin\":true",
     "\"role\":\"MORDRED\",\"assassin\":true", "", "", RPL_OK,
     "assassin-mordred"},
    {"\"role\":\"EVIL MINION\",\"assassin\":true",
     "\"role\":\"ASSASSIN\",\"assassin\":true", "", "", RPL_OK, ""},
    {"\"role\":\"EVIL MINION\",\"assassin\":true",
     "\"role\":\"ASSASSIN\",\"assassin\":false", "record",
     "outcome.roles[2].assassin", RPL_E_RULES,
     "is the ASSASSIN without the assassin flag"},
    {"\"MERLIN\"", "\"LOYAL FOLLOWER\"", "end", "outcome.assassinated",
     RPL_E_RULES, "the site has an assassination"},
    {"{\"players\"", "{\"__collections__\":{},\"players\"", "", "", RPL_OK, ""},
    {"{\"players\"", "{\"__collections__\":{\"x\":{}},\"players\"", "shape",
     "__collections__", RPL_E_SYNTAX, "subcollections camelog does not know"},
    {"\"timeCreated\":{\"_seconds\":1700000000,\"_nanoseconds\":0}",
     "\"timeCreated\":{\"__datatype__\":\"timestamp\",\"value\":{"
     "\"_seconds\":1700000000,\"_nanoseconds\":0}}",
     "", "", RPL_OK, ""},
    {"\"timeCreated\":{\"_seconds\":1700000000,\"_nanoseconds\":0}",
     "\"timeCreated\":{\"__datatype__\":\"date\",\"value\":{"
     "\"_seconds\":1700000000,\"_nanoseconds\":0}}",
     "shape", "timeCreated.__datatype__", RPL_E_SYNTAX,
     "expected \"timestamp\""},
    {"\"assassinated\":\"DAVE\"", "\"assassinated\":\"ERIN\"", "", "", RPL_OK,
     "assassin-names-evil"},
    {"\"message\":\"Three successful missions\",\"assassinated\":\"DAVE\","
     "\"roles\":[{\"name\":\"ALICE\",\"role\":\"MERLIN\"",
     "\"message\":\"Three missions succeeded\",\"assassinated\":null,"
     "\"roles\":[{\"name\":\"ALICE\",\"role\":\"LOYAL FOLLOWER\"",
     "", "", RPL_OK, "percival-alone"},
    {"{\"players\"", "{\"newField\":1,\"players\"", "shape", "newField",
     RPL_E_SYNTAX, "a field of no avalongame format camelog knows"},
    {"\"inGameLog\":false", "\"lady\":true", "option", "options.lady",
     RPL_E_UNSUPPORTED, "an option camelog does not know"},
    {"\"proposer\":\"DAVE\"", "\"proposer\":\"BOB\"", "leader",
     "missions[1].proposals[0].proposer", RPL_E_RULES,
     "proposer BOB is not the next leader (expected DAVE)"},
    {"\"votes\":[\"DAVE\",\"ERIN\"]", "\"votes\":[\"DAVE\",\"ERIN\",\"BOB\"]",
     "vote", "missions[1].proposals[0]", RPL_E_RULES,
     "the official rules say \"team approved 3-2\""},
    {"\"ERIN\":false", "\"ERIN\":true", "record", "missions[1].numFails",
     RPL_E_RULES, "numFails is 1 but outcome.votes[1] holds 0 Fail cards"},
    {"\"ERIN\":false,\"BOB\":true", "\"ERIN\":true,\"BOB\":false", "illegal",
     "outcome.votes[1]", RPL_E_RULES, "p2 (BOB) is good and cannot play fail"},
    {"\"state\":\"FAIL\"", "\"state\":\"SUCCESS\"", "quest",
     "missions[1].state", RPL_E_RULES,
     "the official rules say \"quest 2 fail fails=1\""},
    {"\"assassinated\":\"DAVE\"", "\"assassinated\":\"ALICE\"", "end",
     "outcome.state", RPL_E_RULES, "the site says GOOD_WIN"},
    {"\"assassinated\":\"DAVE\"", "\"assassinated\":null", "end",
     "outcome.assassinated", RPL_E_RULES, "but outcome.assassinated is null"},
    {"\"state\":\"SUCCESS\",\"teamSize\":3",
     "\"state\":\"PENDING\",\"teamSize\":3", "incomplete", "missions[3]",
     RPL_E_INCOMPLETE, "a team was approved but the quest is PENDING"},
};

/* A name camelog(5) does not allow becomes its safe form, everywhere
 * the record names the seat; a name it allows stays as it is. */
static const struct {
    const char *from, *to, *shown;
} NAMES[] = {
    {"\"BOB\"", "\"BOB\\u200b\"", "BOB\\u{200B}"},
    {"\"BOB\"", "\"\\u202eBOB\"", "\\u{202E}BOB"},
    {"\"BOB\"", "\"B\\u001b[2JOB\"", "B\\x1B[2JOB"},
    {"\"BOB\"", "\"B\\\\OB\\u2028\"", "B\\\\OB\\u{2028}"},
    {"\"BOB\"", "\"B\\\\OB\"", "B\\OB"},
    {"\"BOB\"", "\"BOB\\u0085\"", "BOB\\u{0085}"},
};

START_TEST(test_names)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    char *rec = edit_all(NAMES[_i].from, NAMES[_i].to);

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    sk = dealer_key(ctx);
    o = seeded(sk);
    ck_assert_msg(rpl_import(ctx, "avalongame", "n.json", rec, strlen(rec), &o,
                             &log, &rep, &err) == RPL_OK,
                  "%s", rep.reason);
    ck_assert_str_eq(rpl_log_seat_name(log, 2), NAMES[_i].shown);
    rpl_log_free(log);
    free(rec);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

/* Several assassin flags in a game that ends without an assassination
 * change nothing: imported, the power on the first flagged minion. */
START_TEST(test_flags_unused)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    char *rec = edit("\"role\":\"MORGANA\",\"assassin\":false",
                     "\"role\":\"EVIL MINION\",\"assassin\":true");
    char *two;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    sk = dealer_key(ctx);
    o = seeded(sk);
    /* As GOOD's assassination was refused above; without Merlin there is
     * none, and Good wins on its third success. */
    two = malloc(strlen(rec) + 64);
    ck_assert_ptr_nonnull(two);
    {
        const char *from = "\"message\":\"Three successful missions\","
                           "\"assassinated\":\"DAVE\","
                           "\"roles\":[{\"name\":\"ALICE\",\"role\":"
                           "\"MERLIN\"";
        const char *to = "\"message\":\"Three missions succeeded\","
                         "\"assassinated\":null,"
                         "\"roles\":[{\"name\":\"ALICE\",\"role\":"
                         "\"LOYAL FOLLOWER\"";
        const char *at = strstr(rec, from);

        ck_assert_ptr_nonnull(at);
        memcpy(two, rec, (size_t)(at - rec));
        strcpy(two + (at - rec), to);
        strcat(two, at + strlen(from));
    }
    ck_assert_msg(rpl_import(ctx, "avalongame", "f.json", two, strlen(two), &o,
                             &log, &rep, &err) == RPL_OK,
                  "%s", rep.reason);
    ck_assert_str_eq(rep.variants, "percival-alone");
    rpl_log_free(log);
    free(two);
    free(rec);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(test_refusals)
{
    const struct refusal_case *c = &REFUSALS[_i];
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    char *rec = edit(c->from, c->to);
    enum rpl_status rc;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    sk = dealer_key(ctx);
    o = seeded(sk);
    rc = rpl_import(ctx, "avalongame", "case.json", rec, strlen(rec), &o, &log,
                    &rep, &err);
    if (c->key[0] == '\0') {
        /* Imported, with the house rules of reason. */
        ck_assert_msg(rc == RPL_OK, "status %d, %s", rc, rep.reason);
        ck_assert_uint_eq(rep.category, 0);
        ck_assert_str_eq(rep.variants, c->reason);
        rpl_log_free(log);
        log = NULL;
    } else {
        ck_assert_msg(rc == c->status, "%s: status %d, %s", c->key, rc,
                      rep.reason);
        ck_assert_uint_ne(rep.category, 0);
        ck_assert_str_eq(rpl_import_category("avalongame", rep.category)->key,
                         c->key);
        ck_assert_str_eq(rep.field, c->field);
        ck_assert_msg(strstr(rep.reason, c->reason), "reason: %s", rep.reason);
    }
    ck_assert_ptr_null(log);
    ck_assert_int_eq(err.code, rc);
    ck_assert_int_eq(strncmp(err.msg, rep.reason, sizeof(err.msg) - 1), 0);
    ck_assert_str_eq(rep.name, "case");
    free(rec);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

/* RPL_MAX_RECORD bytes import; one more is refused unread. */
START_TEST(test_size_limit)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    char *big = malloc(RPL_MAX_RECORD + 1);

    ck_assert_ptr_nonnull(big);
    memset(big, ' ', RPL_MAX_RECORD + 1);
    memcpy(big, GOOD, strlen(GOOD));
    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    sk = dealer_key(ctx);
    o = seeded(sk);
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "big", big, RPL_MAX_RECORD,
                                &o, &log, &rep, &err),
                     RPL_OK);
    rpl_log_free(log);
    log = NULL;
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "big", big,
                                RPL_MAX_RECORD + 1, &o, &log, &rep, &err),
                     RPL_E_LIMIT);
    ck_assert_ptr_null(log);
    ck_assert_str_eq(rpl_import_category("avalongame", rep.category)->key,
                     "size");
    ck_assert_str_eq(rep.reason, "larger than 1 MiB");
    free(big);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(test_arguments)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    const uint8_t long_seed[65] = {0};

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    sk = dealer_key(ctx);
    o = seeded(sk);
    ck_assert_int_eq(rpl_import(ctx, "lichess", "g", GOOD, strlen(GOOD), &o,
                                &log, &rep, &err),
                     RPL_E_UNSUPPORTED);
    ck_assert_uint_eq(rep.category, 0);
    o.dealer = NULL;
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "g", GOOD, strlen(GOOD), &o,
                                &log, &rep, &err),
                     RPL_E_ARG);
    o = seeded(sk);
    o.seed_len = 0;
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "g", GOOD, strlen(GOOD), &o,
                                &log, &rep, &err),
                     RPL_E_ARG);
    o.seed = long_seed;
    o.seed_len = sizeof(long_seed);
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "g", GOOD, strlen(GOOD), &o,
                                &log, &rep, &err),
                     RPL_E_ARG);
    o.seed_len = 64;
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "g", GOOD, strlen(GOOD), &o,
                                &log, &rep, &err),
                     RPL_OK);
    rpl_log_free(log);
    log = NULL;
    o.options = "rules=house";
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "g", GOOD, strlen(GOOD), &o,
                                &log, &rep, NULL),
                     RPL_E_ARG);
    ck_assert_uint_eq(rep.category, 0);
    ck_assert_ptr_nonnull(strstr(rep.reason, "rules=house"));
    o.options = "";
    /* The name is the original id: 1 to 128 printable bytes. */
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "dir/", GOOD, strlen(GOOD),
                                &o, &log, &rep, &err),
                     RPL_E_SYNTAX);
    ck_assert_str_eq(rpl_import_category("avalongame", rep.category)->key,
                     "id");
    ck_assert_int_eq(rpl_import(ctx, "avalongame", "a b.json", GOOD,
                                strlen(GOOD), &o, &log, &rep, &err),
                     RPL_E_SYNTAX);
    ck_assert_ptr_null(log);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(test_files)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    char dir[] = "/tmp/camelog-import-XXXXXX";
    char path[128];
    FILE *f;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    sk = dealer_key(ctx);
    o = seeded(sk);
    snprintf(path, sizeof(path), "%s/missing.json", dir);
    ck_assert_int_eq(
        rpl_import_file(ctx, "avalongame", path, &o, &log, &rep, &err),
        RPL_E_IO);
    ck_assert_str_eq(rpl_import_category("avalongame", rep.category)->key,
                     "read");
    ck_assert_str_eq(rep.reason, "No such file or directory");
    ck_assert_int_eq(
        rpl_import_file(ctx, "avalongame", dir, &o, &log, &rep, &err),
        RPL_E_IO);
    ck_assert_str_eq(rep.reason, "Is a directory");
    ck_assert_int_eq(
        rpl_import_file(ctx, "avalongame", "-", &o, &log, &rep, &err),
        RPL_E_ARG);
    snprintf(path, sizeof(path), "%s/good-5.json", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(GOOD, f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(
        rpl_import_file(ctx, "avalongame", path, &o, &log, &rep, &err), RPL_OK);
    ck_assert_str_eq(rep.name, "good-5");
    rpl_log_free(log);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

/* Every allocation of an import fails in turn: RPL_E_NOMEM, category
 * "internal", nothing leaked. */
START_TEST(test_nomem)
{
    bool done = false;

    for (long nth = 0; !done; nth++) {
        struct failing f = {-1, 0};
        struct failing *const fp = &f;
        const struct rpl_allocator a = failing_allocator(fp);
        struct rpl_ctx *ctx = NULL;
        struct rpl_seckey *sk;
        struct rpl_import_opts o;
        struct rpl_import_report rep;
        struct rpl_log *log = NULL;
        struct rpl_error err;
        enum rpl_status rc;

        ck_assert_int_eq(rpl_ctx_new(&ctx, &a, NULL), RPL_OK);
        sk = dealer_key(ctx);
        o = seeded(sk);
        fp->countdown = nth;
        rc = rpl_import(ctx, "avalongame", "good-5", GOOD, strlen(GOOD), &o,
                        &log, &rep, &err);
        fp->countdown = -1;
        if (rc == RPL_OK) {
            done = true;
            rpl_log_free(log);
        } else {
            ck_assert_msg(rc == RPL_E_NOMEM, "allocation %ld: %d %s", nth, rc,
                          rep.reason);
            ck_assert_ptr_null(log);
            ck_assert_str_eq(
                rpl_import_category("avalongame", rep.category)->key,
                "internal");
        }
        rpl_seckey_free(sk);
        rpl_ctx_free(ctx);
        ck_assert_int_eq(fp->live, 0);
    }
}
END_TEST

Suite *
import_suite(void)
{
    Suite *s = suite_create("import");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_formats);
    tcase_add_test(tc, test_good);
    tcase_add_loop_test(tc, test_refusals, 0,
                        (int)(sizeof(REFUSALS) / sizeof(REFUSALS[0])));
    tcase_add_loop_test(tc, test_names, 0, sizeof(NAMES) / sizeof(NAMES[0]));
    tcase_add_test(tc, test_flags_unused);
    tcase_add_test(tc, test_size_limit);
    tcase_add_test(tc, test_arguments);
    tcase_add_test(tc, test_files);
    tcase_add_test(tc, test_nomem);
    suite_add_tcase(s, tc);
    return s;
}
