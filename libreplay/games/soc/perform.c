/*
 * perform.c - what a seat's or the dealer's line does when applied: the
 * setup lines, the progression of evil, the heroic actions and special
 * white cards, the answers to the windows, and rpl__soc_effects(), which
 * performs the line and runs the tasks it leaves (effects.c) until the
 * next line is due.
 */
#include <string.h>

#include "effects.h"

/* ------------------------------------------------------------ effects */

static void
record_choice(struct run *r, unsigned kind, unsigned seat, unsigned n,
              const uint8_t *commit)
{
    struct soc_pub *p = r->p;
    struct soc_choice *ch = &r->st->ch[p->nchoice];

    ch->line = (uint32_t)r->line;
    memcpy(ch->commit, commit, 32);
    /* What the play says the choice is, even when its value was learned
     * ahead (a knowing replay learns every `open` line first): the open
     * line is checked against this, not against itself. */
    ch->kind = (uint8_t)kind;
    ch->seat = (uint8_t)seat;
    ch->n = (uint8_t)n;
    if (!p->knows) {
        ch->known = 0;
        ch->opened = 0;
    }
    p->nchoice++;
}

static void
die(struct run *r, unsigned k)
{
    struct soc_pub *p = r->p;

    rpl__soc_fx_leave(r, k);
    p->seat[k].flags &= (uint8_t)~SOC_F_ALIVE;
    p->seat[k].loc = SOC_NOWHERE;
    p->seat[k].lp = 0;
    rpl__soc_fx_w_dump(r, k);
    for (unsigned i = 0; i < SOC_NRELICS; i++)
        if (rpl__soc_relic_held_by(p, i, k))
            p->relic[i] = SOC_RELIC_BOX;
    if (p->die_after == k)
        p->die_after = 0;
    if (!rpl__soc_fx_settle(r))
        rpl__soc_fx_survivor_check(r);
}

static void
perform_special(struct run *r, const struct soc_cmd *cmd)
{
    struct soc_pub *p = r->p;
    const unsigned k = cmd->seat, card = cmd->card;
    const struct soc_card *cd = &rpl__soc_card[card];

    if (card == SOC_HEROISM) {
        rpl__soc_fx_w_to_table(r, k, card);
        p->heroism = (uint8_t)(cmd->loc + 1u);
        return;
    }
    rpl__soc_fx_w_to_disc(r, k, card);
    switch (card) {
    case SOC_MERLIN:
        switch (cmd->loc) {
        case SOC_CAMELOT:
            p->siege--;
            break;
        case SOC_BLACK_KNIGHT:
        case SOC_LANCELOT:
        case SOC_DRAGON: {
            struct soc_combat *cb =
                cmd->loc == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;

            cb->nblack--;
            rpl__soc_fx_b_disc(r, cb->black[cb->nblack]);
            break;
        }
        case SOC_EXCALIBUR:
            p->exc_pos++;
            p->exc_black--;
            if (p->exc_pos >= SOC_EXC_WIN)
                rpl__soc_fx_push(r, TK_QUEST_END, SOC_EXCALIBUR, 1, k);
            break;
        case SOC_GRAIL: {
            const int i = rpl__soc_grail_first_black(p);

            rpl__soc_fx_b_disc(r, p->grail[i]);
            p->grail[i] = SOC_EMPTY;
            break;
        }
        default: {
            struct soc_war *w = &p->war[rpl__soc_war_index(cmd->loc)];
            unsigned j = w->nblack;

            while (j-- > 0 && w->black[j] == SOC_MORDRED)
                ;
            const unsigned x = w->black[j];

            for (unsigned i = j; i + 1u < w->nblack; i++)
                w->black[i] = w->black[i + 1];
            w->nblack--;
            w->figures = (uint8_t)(w->figures - rpl__soc_card[x].p1);
            rpl__soc_fx_b_disc(r, x);
            break;
        }
        }
        break;
    case SOC_CONVOCATION:
        if (cmd->opt == SOC_O_ASK) {
            /* own=on: each knight away says whether he comes back. */
            rpl__soc_fx_ask_offer(r, SOC_CONVOCATION, k, 0);
            break;
        }
        for (unsigned i = 0; i < cmd->nseats; i++) {
            rpl__soc_fx_leave(r, cmd->seats[i]);
            p->seat[cmd->seats[i]].loc = SOC_CAMELOT;
        }
        rpl__soc_fx_convocation_share(r);
        break;
    case SOC_FATE:
        if (p->traitor_on)
            rpl__soc_fx_need(r, SOC_N_SHOWS, k, SOC_SHOWS_FATE, 0, 0);
        else
            rpl__soc_fx_push(r, TK_EACH_DRAW, k, cd->p1,
                             rpl__soc_living_mask(p));
        break;
    case SOC_LADY:
        if (p->exc_state == 0) {
            p->exc_pos = (uint8_t)(p->exc_pos + cd->p1);
            if (p->exc_pos >= SOC_EXC_WIN)
                rpl__soc_fx_push(r, TK_QUEST_END, SOC_EXCALIBUR, 1, k);
        } else {
            p->seat[k].lp = (uint8_t)rpl__soc_lp_add(p->seat[k].lp, cd->p2);
        }
        break;
    case SOC_MESSENGER:
        record_choice(r, SOC_CH_GIVE, k, cmd->num, cmd->commit);
        p->seat[k].hand_n = (uint8_t)(p->seat[k].hand_n - cmd->num);
        p->seat[cmd->seat2].hand_n =
            (uint8_t)(p->seat[cmd->seat2].hand_n + cmd->num);
        rpl__soc_fx_ev(r, SOC_EV_WSECRET, k, 0, cmd->seat2);
        break;
    case SOC_PIETY:
        if (cmd->opt == SOC_O_SELF)
            p->seat[k].lp = (uint8_t)rpl__soc_lp_add(p->seat[k].lp, cd->p1);
        else
            for (unsigned t = 1; t <= p->n; t++)
                if (t != k && soc_living(p, t))
                    p->seat[t].lp =
                        (uint8_t)rpl__soc_lp_add(p->seat[t].lp, cd->p2);
        break;
    case SOC_CLAIRVOYANCE: {
        const unsigned avail = rpl__soc_black_avail(p);

        rpl__soc_fx_need(r, SOC_N_TOP, k, avail < cd->p1 ? avail : cd->p1, 1,
                         0);
        break;
    }
    case SOC_REINFORCEMENTS:
        if (cmd->opt == SOC_O_SELF)
            rpl__soc_fx_push(r, TK_DELIVER, k, cd->p1, 0);
        else
            rpl__soc_fx_push(r, TK_EACH_DRAW, k, cd->p2,
                             rpl__soc_living_mask(p) & ~soc_bit(k));
        break;
    default:
        break;
    }
}

static void
perform_heroic(struct run *r, const struct soc_cmd *cmd)
{
    struct soc_pub *p = r->p;
    const unsigned k = cmd->seat;
    const unsigned type = rpl__soc_action_type(cmd->kw);

    if (cmd->kw == SOC_K_DONE) {
        /* A life point sacrificed and no action taken: it is lost all
         * the same, and the last one kills. */
        rpl__soc_fx_push(r, TK_NEXT, 0, 0, 0);
        if (p->die_after == k) {
            p->die_after = 0;
            rpl__soc_fx_push(r, TK_DEATHS, 0, 0, 0);
        }
        return;
    }
    if (type) {
        if (!rpl__soc_is_free(p, cmd)) {
            p->paid++;
            p->owe = 0;
        }
        p->used |= (uint8_t)type;
    }
    rpl__soc_fx_push(r, TK_HEROIC, 0, 0, 0);
    switch (cmd->kw) {
    case SOC_K_MOVE:
        rpl__soc_fx_leave(r, k);
        p->seat[k].loc = cmd->loc;
        break;
    case SOC_K_DRAW:
        rpl__soc_fx_push(r, TK_DELIVER, k,
                         p->seat[k].knight == SOC_GAWAIN ? 3 : 2, 0);
        break;
    case SOC_K_SIEGE:
        for (unsigned i = 0; i < cmd->ncards; i++) {
            rpl__soc_fx_w_to_table(r, k, cmd->cards[i]);
            p->fight[cmd->cards[i]]++;
        }
        rpl__soc_fx_push(r, TK_SIEGE, k, 0, 0);
        rpl__soc_fx_need(r, SOC_N_ROLL, k, 0, 0, 0);
        break;
    case SOC_K_PLAY: {
        const unsigned q = p->seat[k].loc, card = cmd->card;

        p->completer = (uint8_t)k;
        switch (q) {
        case SOC_BLACK_KNIGHT:
        case SOC_LANCELOT:
        case SOC_DRAGON: {
            struct soc_combat *cb = q == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;

            rpl__soc_fx_w_to_table(r, k, card);
            cb->white[cb->nwhite++] = (uint8_t)card;
            if (cb->nwhite == rpl__soc_quest[q].white_spots)
                rpl__soc_fx_push(r, TK_COMBAT, q, 0, k);
            break;
        }
        case SOC_EXCALIBUR:
            rpl__soc_fx_w_to_disc(r, k, card);
            p->exc_pos++;
            if (p->exc_pos >= SOC_EXC_WIN)
                rpl__soc_fx_push(r, TK_QUEST_END, SOC_EXCALIBUR, 1, k);
            break;
        case SOC_GRAIL: {
            const int i = rpl__soc_grail_low_free(p);

            if (i >= 0) {
                rpl__soc_fx_w_to_table(r, k, card);
                p->grail[i] = SOC_GRAIL_CARD;
                if (rpl__soc_grail_all(p, false))
                    rpl__soc_fx_push(r, TK_QUEST_END, SOC_GRAIL, 1, k);
            } else {
                const int j = rpl__soc_grail_first_black(p);

                rpl__soc_fx_b_disc(r, p->grail[j]);
                p->grail[j] = SOC_EMPTY;
                rpl__soc_fx_w_to_disc(r, k, card);
            }
            break;
        }
        default: {
            struct soc_war *w = &p->war[rpl__soc_war_index(q)];

            rpl__soc_fx_w_to_table(r, k, card);
            w->white[w->nwhite++] = (uint8_t)card;
            if (!rpl__soc_war_next(w))
                rpl__soc_fx_push(r, TK_QUEST_END, q, 1, k);
            break;
        }
        }
        break;
    }
    case SOC_K_SPECIAL:
        perform_special(r, cmd);
        break;
    case SOC_K_HEAL:
        for (unsigned i = 0; i < SOC_HEAL_SAME; i++)
            rpl__soc_fx_w_to_disc(r, k, cmd->card);
        p->seat[k].lp++;
        break;
    case SOC_K_ACCUSE:
        p->seat[k].flags |= SOC_F_ACCUSED;
        rpl__soc_fx_need(r, SOC_N_SHOWS, cmd->seat2, SOC_SHOWS_ACCUSED, k, 0);
        break;
    case SOC_K_SACRIFICE:
        p->seat[k].lp--;
        p->sacrificed = 1;
        p->owe = 1;
        if (!p->seat[k].lp)
            p->die_after = (uint8_t)k;
        break;
    case SOC_K_SWAP:
        p->swapped = 1;
        record_choice(r, SOC_CH_SWAP, k, 1, cmd->commit);
        p->seat[k].hand_n--;
        p->seat[cmd->seat2].hand_n++;
        rpl__soc_fx_ev(r, SOC_EV_WSECRET, k, 0, cmd->seat2);
        rpl__soc_fx_need(r, SOC_N_SWAP_BACK, cmd->seat2, k, 0, 0);
        break;
    default:
        break;
    }
}

static void
perform_start(struct run *r, const struct soc_cmd *cmd)
{
    struct soc_pub *p = r->p;

    p->start_line = (uint32_t)r->line;
    p->phase = SOC_PH_PLAY;
    p->first = p->cur = cmd->seat;
    for (unsigned k = 1; k <= p->n; k++) {
        struct soc_seat *s = &p->seat[k];

        s->knight = cmd->cards[k - 1];
        s->lp = SOC_LP_START;
        s->loc = SOC_CAMELOT;
        s->flags = SOC_F_ALIVE;
        s->hand_n = 1; /* the Merlin each knight is given */
    }
    p->wpile_n = (uint8_t)(SOC_NWHITE - p->n);
    p->bpile_n = SOC_NBLACK;
    for (unsigned c = 0; c < SOC_NBT; c++)
        p->bpile[c] = rpl__soc_card[SOC_B0 + c].count;
    p->wshuffles = p->bshuffles = 1;
    rpl__soc_fx_push(r, TK_ALLOT, 0, 0, 0);
    rpl__soc_fx_push(r, TK_POOL, 1, 0, 0);
    rpl__soc_fx_push(r, TK_DEAL, 1, 0, 0);
    if (p->traitor_on && !p->brave)
        rpl__soc_fx_push(r, TK_LOYALTY, 1, 0, 0);
}

static void
perform(struct run *r, const struct soc_cmd *cmd, const struct soc_need *nd)
{
    struct soc_state *st = r->st;
    struct soc_pub *p = r->p;
    const unsigned k = cmd->seat;

    if (cmd->kw == SOC_K_END) {
        p->winner = cmd->winner;
        p->reason = cmd->num;
        p->phase = SOC_PH_OVER;
        p->end_line = (uint32_t)r->line;
        p->ntask = 0;
        return;
    }
    switch ((enum soc_need_kind)nd->kind) {
    case SOC_N_START:
        perform_start(r, cmd);
        break;
    case SOC_N_LOYALTY:
        memcpy(st->loyalty_commit[k], cmd->commit, 32);
        p->loyalty_line[k] = (uint32_t)r->line;
        p->loyalty_n++;
        break;
    case SOC_N_WHITE:
        rpl__soc_fx_ensure(r, true, cmd->num);
        p->wpile_n = (uint8_t)(p->wpile_n - cmd->num);
        p->seat[k].hand_n = (uint8_t)(p->seat[k].hand_n + cmd->num);
        memcpy(st->dv[p->ndeliv].commit, cmd->commit, 32);
        p->ndeliv++;
        rpl__soc_fx_ev(r, SOC_EV_WDRAW, k, cmd->num, 0);
        break;
    case SOC_N_TOP:
        rpl__soc_fx_ensure(r, false, cmd->num);
        memcpy(st->dv[p->ndeliv].commit, cmd->commit, 32);
        p->ndeliv++;
        rpl__soc_fx_ev(r, SOC_EV_BLOOK, k, cmd->num, 0);
        if (nd->b)
            rpl__soc_fx_need(r, SOC_N_ORDER, k, cmd->num, 0, 0);
        break;
    case SOC_N_BLACK:
        rpl__soc_fx_ensure(r, false, cmd->ncards);
        for (unsigned i = 0; i < cmd->ncards; i++) {
            const unsigned c = cmd->cards[i];

            p->bpile[c - SOC_B0]--;
            p->bpile_n--;
            p->btable[c - SOC_B0]++;
            rpl__soc_fx_ev(r, SOC_EV_BDRAW, 0, c, 0);
        }
        if (cmd->ncards == 2) {
            p->drawn[0] = cmd->cards[0];
            p->drawn[1] = cmd->cards[1];
            p->ndrawn = 2;
            rpl__soc_fx_need(r, SOC_N_KEEP, k, 0, 0, 0);
        } else {
            rpl__soc_fx_push(r, TK_RESOLVE, cmd->cards[0], k, 0);
        }
        break;
    case SOC_N_ROLL:
        p->roll = cmd->num;
        rpl__soc_fx_ev(r, SOC_EV_ROLL, 0, cmd->num, 0);
        break;
    case SOC_N_TAUNTED:
        p->seat[k].hand_n--;
        p->wdisc[cmd->card]++;
        rpl__soc_fx_ev(r, SOC_EV_WTAUNT, k, cmd->card, 0);
        break;
    case SOC_N_SHOWS: {
        const bool traitor = cmd->opt == SOC_O_TRAITOR;

        rpl__soc_fx_ev(r, SOC_EV_LOYAL, k, traitor, 0);
        if (!traitor)
            p->seat[k].flags |= SOC_F_LOYAL;
        switch (nd->a) {
        case SOC_SHOWS_ACCUSED:
            if (traitor) {
                rpl__soc_fx_reveal_traitor(r, k);
                p->swords_w++;
            } else if (p->swords_w) {
                p->swords_w--;
                p->swords_b++;
            } else {
                p->swords_b++;
            }
            rpl__soc_fx_settle(r);
            break;
        case SOC_SHOWS_FATE:
            if (traitor) {
                rpl__soc_fx_reveal_traitor(r, k);
                rpl__soc_fx_push(r, TK_EACH_DISCARD, k,
                                 rpl__soc_card[SOC_FATE].p2,
                                 rpl__soc_living_mask(p));
            } else {
                rpl__soc_fx_push(r, TK_EACH_DRAW, k, rpl__soc_card[SOC_FATE].p1,
                                 rpl__soc_living_mask(p));
            }
            rpl__soc_fx_settle(r);
            break;
        default:
            if (traitor) {
                p->seat[k].flags |= SOC_F_REVEALED;
                p->traitor = (uint8_t)k;
                rpl__soc_fx_end_game(r, SOC_W_EVIL, SOC_R_DEATHS);
            }
            break;
        }
        break;
    }
    case SOC_N_QUEST:
        rpl__soc_fx_quest_end(r, nd->a, nd->b, nd->c);
        break;
    case SOC_N_DIES:
        die(r, k);
        break;
    case SOC_N_FLIP: {
        unsigned flip = p->swords_w < 2 ? p->swords_w : 2u;

        if (cmd->seat) {
            rpl__soc_fx_ev(r, SOC_EV_LOYAL, cmd->seat, 1, 0);
            p->flip = cmd->seat;
            p->traitor = cmd->seat;
            p->seat[cmd->seat].flags |= SOC_F_REVEALED;
            p->swords_w = (uint8_t)(p->swords_w - flip);
            p->swords_b = (uint8_t)(p->swords_b + flip);
        } else {
            rpl__soc_fx_ev(r, SOC_EV_NOTRAITOR, 0, 0, 0);
            p->flip = SOC_FLIP_NONE;
        }
        rpl__soc_fx_push(r, TK_END, 0, SOC_R_MAJORITY, 0);
        break;
    }
    case SOC_N_END:
        break;
    case SOC_N_POOL:
        rpl__soc_fx_w_to_table(r, k, cmd->card);
        p->pool[p->npool++] = cmd->card;
        p->poolers = (uint8_t)(p->poolers | soc_bit(k));
        break;
    case SOC_N_ALLOT:
        if (cmd->opt == SOC_O_RANDOM) {
            /* No agreement: one card each, at random (S-36). */
            rpl__soc_fx_need(r, SOC_N_REDEAL, 0, 0, 0, 0);
            break;
        }
        /* fall through */
    case SOC_N_REDEAL:
        for (unsigned i = 0; i < p->npool; i++) {
            if (cmd->kw == SOC_K_REDEAL)
                rpl__soc_fx_ev(r, SOC_EV_REDEAL, i, cmd->seats[i], 0);
            rpl__soc_fx_w_table_hand(r, cmd->seats[i], p->pool[i]);
        }
        p->npool = 0;
        p->cur = p->first;
        rpl__soc_fx_push(r, TK_TURN, 0, 0, 0);
        break;
    case SOC_N_EVIL:
        if (cmd->kw == SOC_K_LOOK) {
            p->looked = 1;
            rpl__soc_fx_push(r, TK_EVIL, 0, 0, 0);
            rpl__soc_fx_need(r, SOC_N_TOP, k, 1, 0, 0);
        } else if (cmd->kw == SOC_K_SWAP) {
            p->swapped = 1;
            record_choice(r, SOC_CH_SWAP, k, 1, cmd->commit);
            p->seat[k].hand_n--;
            p->seat[cmd->seat2].hand_n++;
            rpl__soc_fx_ev(r, SOC_EV_WSECRET, k, 0, cmd->seat2);
            rpl__soc_fx_push(r, TK_EVIL, 0, 0, 0);
            rpl__soc_fx_need(r, SOC_N_SWAP_BACK, cmd->seat2, k, 0, 0);
        } else {
            rpl__soc_fx_push(r, nd->a ? TK_NEXT : TK_EVIL_DONE, 0, 0, 0);
            if (cmd->opt == SOC_O_BLACK) {
                rpl__soc_fx_push(r, TK_DRAWS, k, 1, 0);
            } else if (cmd->opt == SOC_O_SIEGE) {
                rpl__soc_fx_siege_add(r, 1);
            } else {
                p->seat[k].lp--;
                rpl__soc_fx_settle(r);
            }
        }
        break;
    case SOC_N_TAUNT:
        if (cmd->seat2)
            rpl__soc_fx_need(r, SOC_N_TAUNTED, cmd->seat2, 0, 0, 0);
        break;
    case SOC_N_KEEP: {
        const unsigned other =
            cmd->card == p->drawn[0] ? p->drawn[1] : p->drawn[0];

        p->btable[other - SOC_B0]--;
        p->bpile[other - SOC_B0]++;
        p->bpile_n++;
        rpl__soc_fx_ev(r, SOC_EV_BBOTTOM, 0, other, 0);
        p->ndrawn = 0;
        rpl__soc_fx_push(r, TK_RESOLVE, cmd->card, k, 0);
        break;
    }
    case SOC_N_CANCEL:
        if (cmd->kw == SOC_K_PASS) {
            rpl__soc_fx_push(r, TK_EFFECT, p->resolving, p->drawer, 0);
        } else {
            if (cmd->opt == SOC_O_EXCALIBUR)
                p->relic[SOC_REL_EXCALIBUR] = SOC_RELIC_BOX;
            else
                for (unsigned i = 0; i < cmd->nseats; i++)
                    rpl__soc_fx_w_to_disc(r, cmd->seats[i], SOC_MERLIN);
            rpl__soc_fx_b_disc(r, p->resolving);
        }
        p->resolving = 0;
        break;
    case SOC_N_WAR:
        rpl__soc_fx_war_figure(r, cmd->loc, nd->a);
        break;
    case SOC_N_VOLUNTEER:
        /* The drawer writes it (own=off), or the last word (own=on). */
        rpl__soc_fx_volunteered(r, nd->a, p->own ? nd->b : k, cmd->seat2);
        break;
    case SOC_N_MERLINS:
        p->offered[k] = (uint8_t)(p->offered[k] + cmd->num);
        if (cmd->num)
            rpl__soc_fx_ev(r, SOC_EV_WHOLD, k, SOC_MERLIN, p->offered[k]);
        rpl__soc_fx_ask_merlins(r, nd->a, k, nd->b + cmd->num);
        break;
    case SOC_N_OFFER:
        if (cmd->opt == SOC_O_YES) {
            p->offers = (uint8_t)(p->offers | soc_bit(k));
            if (nd->a == SOC_CONVOCATION) {
                rpl__soc_fx_leave(r, k);
                p->seat[k].loc = SOC_CAMELOT;
            }
        }
        rpl__soc_fx_ask_offer(r, nd->a, nd->b, k);
        break;
    case SOC_N_DISCARD:
        for (unsigned i = 0; i < cmd->ncards; i++)
            rpl__soc_fx_w_to_disc(r, k, cmd->cards[i]);
        break;
    case SOC_N_HEROIC:
        perform_heroic(r, cmd);
        break;
    case SOC_N_SWAP_BACK:
        record_choice(r, SOC_CH_SWAP, k, 1, cmd->commit);
        p->seat[k].hand_n--;
        p->seat[nd->a].hand_n++;
        rpl__soc_fx_ev(r, SOC_EV_WSECRET, k, 0, nd->a);
        break;
    case SOC_N_ORDER:
        record_choice(r, SOC_CH_ORDER, k, nd->a, cmd->commit);
        rpl__soc_fx_ev(r, SOC_EV_BORDER, k, 0, 0);
        break;
    case SOC_N_KAY:
        if (cmd->kw == SOC_K_KAY) {
            rpl__soc_fx_w_to_table(r, k, cmd->card);
            p->kay_card = (uint8_t)(cmd->card + 1u);
        }
        break;
    case SOC_N_SAVE:
        if (cmd->kw == SOC_K_SAVE) {
            p->relic[SOC_REL_GRAIL] = SOC_RELIC_BOX;
            p->seat[nd->a].lp = SOC_SAVE_LP;
        } else {
            rpl__soc_fx_push(r, TK_DIE, nd->a, 0, 0);
        }
        break;
    case SOC_N_SHARE:
        for (unsigned i = cmd->nseats; i-- > 0;)
            if (cmd->counts[i])
                rpl__soc_fx_push(r, TK_DELIVER, cmd->seats[i], cmd->counts[i],
                                 0);
        break;
    case SOC_N_NONE:
        break;
    }
}

enum rpl_status
rpl__soc_effects(struct soc_state *st, const struct soc_cmd *cmd,
                 const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    struct soc_need nd;
    struct run r;

    r.st = st;
    r.p = &st->p;
    r.env = env;
    r.seed = env ? env->seed : NULL;
    r.line = line;
    r.err = err;
    r.rc = RPL_OK;
    nd = st->p.need;
    memset(&st->p.need, 0, sizeof(st->p.need));
    perform(&r, cmd, &nd);
    if (st->p.phase != SOC_PH_OVER)
        rpl__soc_fx_run(&r);
    return r.rc;
}
