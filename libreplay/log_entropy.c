/*
 * log_entropy.c - rpl_log_verify()'s checks of format 2's seed in two
 * rounds (camelog(5) "Entropy"): the pledges, the pledged line and its
 * seal, each value against its pledge, the abandoned line, every pledge
 * revealed before the game starts; and after the last line, the seats
 * with a key that took no part and the unsigned lines of keyed seats.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "log_verify.h"

/* Format 2 (camelog(5) "Entropy"): pK's value, after the sealed start,
 * in any order, matching its pledge. */
enum rpl_status
rpl__verify_entropy2(struct verify *v, const struct rpl__line *ln, size_t seat,
                     const uint8_t entropy[32], struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    const uint32_t bit = 1u << (seat - 1);
    uint8_t check[RPL__HASH];

    if (log->abandoned)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "entropy after the game was abandoned (line %zu)",
                        log->abandoned_line);
    if (!log->start_seal)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "entropy of p%zu before the sealed start: a value is "
                        "revealed only after a pledged line and the "
                        "dealer's seal",
                        seat);
    if (!(log->pledged & bit))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "entropy of p%zu, which made no pledge", seat);
    if (log->revealed & bit)
        return rpl__err(err, RPL_E_RULES, ln->no, "second entropy of p%zu",
                        seat);
    rpl__pledge(check, log->id, seat, entropy);
    if (sodium_memcmp(check, log->pledge[seat], RPL__HASH) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, ln->no,
                        "the entropy of p%zu does not match its pledge "
                        "(line %zu)",
                        seat, log->pledge_at[seat]);
    memcpy(log->value[seat], entropy, 32);
    log->revealed |= bit;
    v->rep->revealed |= bit;
    v->rep->entropy_seats++;
    v->entropy_line = ln->no;
    v->prev_author = seat;
    v->prev_base = log->reveal_base;
    return RPL_OK;
}

/* Format 2: `pledge pK <hex>`, a seat's commitment to its value. */
static enum rpl_status
verify_pledge(struct verify *v, const struct rpl__line *ln,
              struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    size_t seat = 0;
    uint8_t c[32];

    if (ln->ntok != 3 || !rpl__tok_seat(&ln->tok[1], log->seats, &seat) ||
        !rpl__tok_hex(&ln->tok[2], c, sizeof(c)))
        return rpl__err(err, RPL_E_SYNTAX, ln->no,
                        "expected \"pledge pK <64 lowercase hex digits>\"");
    if (log->version < 2)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "a pledge line in a format 1 file (pledges are "
                        "format 2's)");
    if (log->pledged_line)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "pledge after the pledged line (line %zu): the "
                        "round of pledges is closed",
                        log->pledged_line);
    if (v->started)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "pledge after the game started");
    if (log->pledged & (1u << (seat - 1)))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "second pledge of p%zu (the first is line %zu)", seat,
                        log->pledge_at[seat]);
    memcpy(log->pledge[seat], c, 32);
    log->pledge_at[seat] = ln->no;
    log->pledged |= 1u << (seat - 1);
    v->rep->pledged |= 1u << (seat - 1);
    v->pledge_no = ln->no;
    v->prev_author = seat;
    v->prev_base = log->pledge_base;
    return RPL_OK;
}

/* Writes the seats of mask as "p1,p3" into out. */
static void
seat_list(char *out, size_t cap, uint32_t mask)
{
    size_t n = 0;

    out[0] = '\0';
    for (size_t k = 1; k <= RPL_MAX_SEATS && n < cap; k++)
        if (mask & (1u << (k - 1))) {
            const int w = snprintf(out + n, cap - n, "%sp%zu", n ? "," : "", k);

            if (w < 0)
                break;
            n += (size_t)w;
        }
}

/* Format 2: `pledged p1,p2,...`, the dealer closes the pledges; the next
 * line is its seal. */
static enum rpl_status
verify_pledged(struct verify *v, const struct rpl__line *ln,
               struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    uint32_t mask = 0;
    char want[64];
    const struct rpl__tok *t = ln->ntok == 2 ? &ln->tok[1] : NULL;
    size_t i = 0, last = 0;

    seat_list(want, sizeof(want), log->pledged);
    if (log->version < 2)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "a pledged line in a format 1 file");
    /* p1,p3,...: seats strictly ascending. */
    while (t && i < t->n) {
        size_t j = i, seat = 0;
        struct rpl__tok one;

        while (j < t->n && t->p[j] != ',')
            j++;
        one.p = t->p + i;
        one.n = j - i;
        if (!rpl__tok_seat(&one, log->seats, &seat) || seat <= last) {
            t = NULL;
            break;
        }
        last = seat;
        mask |= 1u << (seat - 1);
        i = j + 1;
        if (j + 1 == t->n) /* a trailing comma */
            t = NULL;
    }
    if (!t)
        return rpl__err(err, RPL_E_SYNTAX, ln->no,
                        "expected \"pledged <seats ascending, "
                        "comma-separated>\"");
    if (log->pledged_line)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "second pledged line (the first is line %zu)",
                        log->pledged_line);
    if (v->started)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "pledged after the game started");
    if (mask != log->pledged)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the pledged line names %.*s, but the pledges are "
                        "of %s",
                        (int)ln->tok[1].n, ln->tok[1].p,
                        log->pledged ? want : "no seat");
    log->pledged_line = ln->no;
    v->seal_due = true;
    return RPL_OK;
}

/* Format 2: `abandoned pK`, the dealer ends a game whose seat withheld
 * its value. */
static enum rpl_status
verify_abandoned(struct verify *v, const struct rpl__line *ln,
                 struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    size_t seat = 0;

    if (ln->ntok != 2 || !rpl__tok_seat(&ln->tok[1], log->seats, &seat))
        return rpl__err(err, RPL_E_SYNTAX, ln->no, "expected \"abandoned pK\"");
    if (log->version < 2)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "an abandoned line in a format 1 file");
    if (v->started || !log->start_seal)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "abandoned only between the sealed start and the "
                        "game's first line");
    if (!(log->pledged & (1u << (seat - 1))) ||
        (log->revealed & (1u << (seat - 1))))
        return rpl__err(
            err, RPL_E_RULES, ln->no, "abandoned p%zu: p%zu %s", seat, seat,
            (log->pledged & (1u << (seat - 1))) ? "revealed its entropy"
                                                : "made no pledge");
    log->abandoned = seat;
    log->abandoned_line = ln->no;
    v->rep->abandoned_by = seat;
    v->end_line = ln->no;
    return RPL_OK;
}

/* Format 2, before the first game line: every pledge revealed. */
enum rpl_status
rpl__verify_revealed(struct verify *v, const struct rpl__line *ln,
                     struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    const uint32_t missing = log->pledged & ~log->revealed;

    if (log->version < 2 || v->started || !log->pledged)
        return RPL_OK;
    if (!log->start_seal)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the game starts before the pledges are sealed (a "
                        "pledged line and the dealer's seal)");
    if (missing) {
        size_t k = 1;

        while (!(missing & (1u << (k - 1))))
            k++;
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the game starts while p%zu's pledge (line %zu) is "
                        "not revealed: the game waits for it or is "
                        "abandoned",
                        k, log->pledge_at[k]);
    }
    return RPL_OK;
}

/* After the last line: the seats that took no part in the seed and the
 * unsigned lines of keyed seats, as errors under opts->require_entropy
 * and require_signatures, else the warning W-unsigned. */
enum rpl_status
rpl__verify_part(struct verify *v, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    const struct rpl_verify_opts *opts = v->opts;
    struct rpl_report *rep = v->rep;
    char msg[200];

    if (log->abandoned) {
        rpl__fmt(rep->winner, sizeof(rep->winner), "abandoned");
        rpl__fmt(rep->reason, sizeof(rep->reason), "withheld");
    }
    if (opts && opts->require_entropy)
        for (size_t k = 1; k <= log->seats; k++) {
            const uint32_t bit = 1u << (k - 1);

            if (!log->has_seat_key[k] || (rep->revealed & bit))
                continue;
            if (log->version >= 2 && (log->pledged & bit))
                return rpl__err(err, RPL_E_FAIRNESS,
                                log->abandoned == k ? log->abandoned_line
                                                    : log->pledge_at[k],
                                "p%zu has a key but took no part in the "
                                "seed: its pledge (line %zu) was never "
                                "revealed (entropy required)",
                                k, log->pledge_at[k]);
            return rpl__err(err, RPL_E_FAIRNESS, log->header_end,
                            "p%zu has a key but took no part in the seed: "
                            "no %s line (entropy required)",
                            k, log->version >= 2 ? "pledge" : "entropy");
        }
    if (rep->unsigned_lines == 0)
        return RPL_OK;
    if (opts && opts->require_signatures)
        return rpl__err(err, RPL_E_SIG, rep->first_unsigned,
                        "line %zu, authored by p%zu, has no sig although "
                        "p%zu has a key in the header (signatures "
                        "required)",
                        rep->first_unsigned, v->unsigned_seat,
                        v->unsigned_seat);
    snprintf(msg, sizeof(msg),
             "W-unsigned: %zu %s authored by a seat with a key %s no sig "
             "(the first: line %zu, p%zu)",
             rep->unsigned_lines, rep->unsigned_lines == 1 ? "line" : "lines",
             rep->unsigned_lines == 1 ? "carries" : "carry",
             rep->first_unsigned, v->unsigned_seat);
    /* The verify pass's own warning hook (log.c adds it to the log). */
    v->env.warn(v->env.w, rep->first_unsigned, msg);
    return RPL_OK;
}

enum rpl_status
rpl__verify_seat_pin(struct verify *v, const struct rpl__line *ln, size_t seat,
                     struct rpl_error *err)
{
    struct rpl_log *log = v->log;

    if (v->opts && v->opts->seat_pin[seat]) {
        const struct rpl_pubkey *pin = v->opts->seat_pin[seat];
        char want[17];
        char got[17];

        rpl__key_id_text(want, pin->id);
        if (!log->has_seat_key[seat])
            return rpl__err(err, RPL_E_KEY, ln->no,
                            "p%zu has no key in the header: expected "
                            "its pinned key, key id %s",
                            seat, want);
        rpl__key_id_text(got, log->seat_key[seat].id);
        if (memcmp(pin->id, log->seat_key[seat].id, 8) != 0 ||
            memcmp(pin->key, log->seat_key[seat].key, 32) != 0)
            return rpl__err(err, RPL_E_KEY, ln->no,
                            "the key of p%zu is not its pinned key: "
                            "expected key id %s, found key id %s%s",
                            seat, want, got,
                            memcmp(pin->id, log->seat_key[seat].id, 8)
                                ? ""
                                : " with another public key");
    }
    return RPL_OK;
}

enum rpl_status
rpl__verify_body(struct verify *v, const struct rpl__line *ln, bool is_seal,
                 bool is_sig, struct rpl_error *err)
{
    struct rpl_log *log = v->log;

    if (v->seal_due && !is_seal)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the pledged line (line %zu) must be followed by the "
                        "dealer's seal",
                        log->pledged_line);
    if (log->abandoned && !is_seal)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "only seal lines may follow abandoned (line %zu)",
                        log->abandoned_line);
    if (!is_sig)
        v->prev_base = NULL;
    if (!is_sig && v->prev_author && log->has_seat_key[v->prev_author]) {
        /* The previous line, authored by a keyed seat, is unsigned. */
        if (v->rep->unsigned_lines++ == 0) {
            v->rep->first_unsigned = ln->no - 1;
            v->unsigned_seat = v->prev_author;
        }
    }
    return RPL_OK;
}

void
rpl__verify_sealed(struct verify *v, const struct rpl__line *ln)
{
    struct rpl_log *log = v->log;

    if (!v->seal_due)
        return;
    /* The sealed start: every pledge, sealed before any value. */
    v->seal_due = false;
    log->start_seal = ln->no;
    memcpy(log->reveal_base, v->head, RPL__HASH);
    rpl__chain(log->reveal_base, ln->text, ln->len);
}

void
rpl__verify_signed(struct verify *v, const struct rpl__line *ln, size_t seat)
{
    if (v->entropy_line == ln->no - 1) {
        v->rep->entropy_signed++;
        v->rep->reveal_signed |= 1u << (seat - 1);
    }
    if (v->pledge_no == ln->no - 1)
        v->rep->pledge_signed |= 1u << (seat - 1);
}

void
rpl__verify_reset(struct rpl_log *log)
{
    log->pledged = log->revealed = 0;
    log->pledged_line = log->start_seal = 0;
    log->abandoned = log->abandoned_line = 0;
    memset(log->pledge_at, 0, sizeof(log->pledge_at));
}

enum rpl_status
rpl__verify_line2(struct verify *v, const struct rpl__line *ln, enum rpl__kw kw,
                  struct rpl_error *err)
{
    if (kw == RPL__KW_PLEDGE)
        return verify_pledge(v, ln, err);
    v->prev_author = 0;
    if (kw == RPL__KW_PLEDGED)
        return verify_pledged(v, ln, err);
    return verify_abandoned(v, ln, err);
}

void
rpl__verify_header_end(struct verify *v, const struct rpl__line *ln)
{
    /* A pledge signs against the chain of the whole header (the commit
     * line included), whatever the order of the pledges. */
    memcpy(v->log->pledge_base, v->head, RPL__HASH);
    rpl__chain(v->log->pledge_base, ln->text, ln->len);
}
