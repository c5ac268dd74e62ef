/*
 * effects.h - what effects.c and perform.c share: the tasks of the
 * stack, the line being applied (struct run), and the helpers of
 * effects.c that perform.c calls.  Nothing here is public API.
 */
#ifndef LIBREPLAY_SOC_EFFECTS_H
#define LIBREPLAY_SOC_EFFECTS_H

#include "soc.h"

enum task_kind {
    TK_LOYALTY = 1, /* a: seat */
    TK_DEAL,        /* a: seat */
    TK_POOL,        /* a: seat */
    TK_ALLOT,
    TK_TURN,
    TK_EVIL,      /* the progression of evil is still to choose */
    TK_EVIL_DONE, /* then the heroic actions */
    TK_TRAITOR_EVIL,
    TK_HEROIC,
    TK_NEXT,
    TK_DRAWS,   /* a: drawer, b: cards left to draw */
    TK_RESOLVE, /* a: card, b: drawer */
    TK_EFFECT,  /* a: card, b: drawer */
    TK_COMBAT,  /* a: quest */
    TK_COMBAT_RESULT,
    TK_SIEGE,        /* a: fighter */
    TK_SIEGE_RESULT, /* a: fighter */
    TK_QUEST_END,    /* a: quest, b: won, c: completer */
    TK_SHARE,        /* a: cards, b: quest, c: present mask */
    TK_DELIVER,      /* a: seat, b: cards */
    TK_EACH_DRAW,    /* a: from, b: cards, c: seats left (mask) */
    TK_EACH_DISCARD, /* a: from, b: cards, c: seats left (mask) */
    TK_DEATHS,
    TK_DIE,      /* a: seat */
    TK_SURVIVOR, /* a: seat */
    TK_END,      /* a: winner, b: reason */
    TK_BRAVE     /* 3-player variant: loyalty lines, a: seat */
};

/* One line being applied. */
struct run {
    struct soc_state *st;
    struct soc_pub *p;
    const struct rpl__env *env;
    const uint8_t *seed;
    size_t line;
    struct rpl_error *err;
    enum rpl_status rc;
};

void rpl__soc_fx_ask_merlins(struct run *r, unsigned drawer, unsigned after,
                             unsigned total);
void rpl__soc_fx_ask_offer(struct run *r, unsigned ctx, unsigned origin,
                           unsigned after);
void rpl__soc_fx_b_disc(struct run *r, unsigned card);
void rpl__soc_fx_convocation_share(struct run *r);
void rpl__soc_fx_end_game(struct run *r, unsigned winner, unsigned reason);
void rpl__soc_fx_ensure(struct run *r, bool white, unsigned k);
void rpl__soc_fx_ev(struct run *r, unsigned kind, unsigned a, unsigned b,
                    unsigned c);
void rpl__soc_fx_leave(struct run *r, unsigned k);
void rpl__soc_fx_need(struct run *r, unsigned kind, unsigned seat, unsigned a,
                      unsigned b, unsigned c);
void rpl__soc_fx_push(struct run *r, unsigned kind, unsigned a, unsigned b,
                      unsigned c);
void rpl__soc_fx_quest_end(struct run *r, unsigned q, bool won,
                           unsigned completer);
void rpl__soc_fx_reveal_traitor(struct run *r, unsigned k);
void rpl__soc_fx_run(struct run *r);
bool rpl__soc_fx_settle(struct run *r);
void rpl__soc_fx_siege_add(struct run *r, unsigned n);
void rpl__soc_fx_survivor_check(struct run *r);
void rpl__soc_fx_volunteered(struct run *r, unsigned card, unsigned drawer,
                             unsigned v);
void rpl__soc_fx_w_dump(struct run *r, unsigned k);
void rpl__soc_fx_w_table_hand(struct run *r, unsigned k, unsigned card);
void rpl__soc_fx_w_to_disc(struct run *r, unsigned k, unsigned card);
void rpl__soc_fx_w_to_table(struct run *r, unsigned k, unsigned card);
void rpl__soc_fx_war_figure(struct run *r, unsigned q, unsigned card);

#endif /* LIBREPLAY_SOC_EFFECTS_H */
