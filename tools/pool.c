/*
 * pool.c - worker threads for the commands that take many files (verify,
 * archive add, import, simulate --count, corpus): the jobs run in
 * parallel, each in a slot of a bounded window with its own context (the
 * library's contexts are single-threaded), and the main thread takes
 * them in input order, so the output is the same whatever -j says.
 *
 * -j N runs N - 1 workers, and the main thread is the Nth: rather than
 * sleep until the job it needs is done, it runs the next job itself.  On
 * a virtual machine every sleep and wake-up of a thread costs a
 * hypervisor exit; a main thread that slept for every job of verify took
 * a fifth of a core from the workers.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct slot {
    struct rpl_ctx *ctx; /* NULL in inline mode: the pool's ctx serves */
    void *data;
    char *out, *err; /* what the job printed (free()) */
    size_t out_len, err_len;
    int rc;
    bool is_done;
};

/* The context of the thread running this job (cli_pool_keep()), NULL
 * outside a job of a pool with threads. */
static _Thread_local struct rpl_ctx *thread_ctx;

struct cli_pool {
    size_t n, window, data_size;
    cli_pool_work work;
    cli_pool_drop drop; /* NULL: nothing to drop */
    void *ud;
    struct rpl_ctx *ctx;      /* -j 1 (no threads): every job's */
    struct rpl_ctx *main_ctx; /* the main thread's, for the jobs it runs */
    struct slot *slots;
    pthread_t *threads;
    size_t nthreads;
    pthread_mutex_t mu;
    pthread_cond_t done_cv;  /* a job is done */
    pthread_cond_t space_cv; /* a slot was released, or stop */
    size_t next;             /* the next job to start */
    size_t released;         /* jobs below this are released */
    size_t awaited;          /* the job the main thread waits for */
    bool is_awaiting;        /* it waits on done_cv for it */
    bool is_stopping;
};

int
cli_parse_jobs(const char *cmd, const char *arg, size_t *jobs)
{
    size_t n;

    if (!cli_parse_size(arg, &n) || n == 0 || n > 1024) {
        return cli_usage_error(cmd,
                               "-j: expected a number of jobs from 1 to "
                               "1024, got '%s'",
                               arg);
    }
    *jobs = n;
    return CLI_EXIT_OK;
}

size_t
cli_jobs_default(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 1024 ? 1024 : (size_t)n;
}

/* Runs job i in slot s with its output diverted into s's buffers. */
static void
run_job(struct cli_pool *p, size_t i, struct slot *s)
{
    FILE *out = open_memstream(&s->out, &s->out_len);
    FILE *err = open_memstream(&s->err, &s->err_len);

    memset(s->data, 0, p->data_size);
    if (!out || !err) {
        /* No buffers: the job cannot run; say so in input order. */
        if (out) {
            fclose(out);
        }
        if (err) {
            fclose(err);
        }
        free(s->out);
        free(s->err);
        s->out = NULL;
        s->err = strdup("camelog: out of memory\n");
        s->out_len = 0;
        s->err_len = s->err ? strlen(s->err) : 0;
        s->rc = CLI_EXIT_USAGE;
        return;
    }
    cli_divert(out, err);
    s->rc = p->work(p->ud, s->ctx, i, s->data);
    cli_divert(NULL, NULL);
    if (fclose(out) != 0 || fclose(err) != 0) {
        s->rc = CLI_EXIT_USAGE;
    }
}

/* Runs job i, taken by this thread, in its slot s. */
static void
run_taken(struct cli_pool *p, size_t i, struct slot *s)
{
    /* The slot's context starts with what this thread's contexts have
     * checked of keys, and hands back what it learns. */
    if (thread_ctx && s->ctx) {
        rpl_ctx_learn(s->ctx, thread_ctx);
    }
    run_job(p, i, s);
    if (thread_ctx && s->ctx) {
        rpl_ctx_learn(thread_ctx, s->ctx);
    }
}

/* Under p->mu: takes the next job if its slot is free, or returns
 * false. */
static bool
take_next(struct cli_pool *p, size_t *i)
{
    if (p->is_stopping || p->next >= p->n ||
        p->next >= p->released + p->window) {
        return false;
    }
    *i = p->next++;
    return true;
}

static void *
worker(void *arg)
{
    struct cli_pool *p = arg;
    struct rpl_error err;

    /* Its own context, for what a job keeps from one job to the next
     * (none without one: the jobs run all the same). */
    if (rpl_ctx_new(&thread_ctx, NULL, &err) != RPL_OK) {
        thread_ctx = NULL;
    }
    pthread_mutex_lock(&p->mu);
    for (;;) {
        size_t i;
        struct slot *s;

        if (!take_next(p, &i)) {
            if (p->is_stopping || p->next >= p->n) {
                break;
            }
            pthread_cond_wait(&p->space_cv, &p->mu);
            continue;
        }
        s = &p->slots[i % p->window];
        pthread_mutex_unlock(&p->mu);
        run_taken(p, i, s);
        pthread_mutex_lock(&p->mu);
        s->is_done = true;
        /* Wake the main thread only for the job it waits for: a job
         * done ahead of its turn would wake it for nothing. */
        if (p->is_awaiting && p->awaited == i) {
            pthread_cond_signal(&p->done_cv);
        }
    }
    pthread_mutex_unlock(&p->mu);
    rpl_ctx_free(thread_ctx);
    thread_ctx = NULL;
    return NULL;
}

struct rpl_ctx *
cli_pool_keep(void)
{
    return thread_ctx;
}

int
cli_pool_start(struct cli_pool **out, size_t n, size_t jobs, size_t window,
               size_t data_size, cli_pool_work work, void *ud)
{
    struct cli_pool *p;
    struct rpl_error err;
    size_t k;
    int rc = CLI_EXIT_USAGE;

    *out = NULL;
    p = calloc(1, sizeof(*p));
    if (!p) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    p->n = n;
    p->window = window < 1 ? 1 : window;
    p->data_size = data_size < 1 ? 1 : data_size;
    p->work = work;
    p->ud = ud;
    if (jobs > n) {
        jobs = n;
    }
    p->slots = calloc(p->window, sizeof(*p->slots));
    if (!p->slots) {
        cli_msg("out of memory");
        goto fail;
    }
    for (k = 0; k < p->window; k++) {
        p->slots[k].data = calloc(1, p->data_size);
        if (!p->slots[k].data) {
            cli_msg("out of memory");
            goto fail;
        }
    }
    if (jobs <= 1) {
        /* Inline: one thread, so one context serves every slot. */
        rc = cli_ctx_new(&p->ctx);
        if (rc != CLI_EXIT_OK) {
            goto fail;
        }
        *out = p;
        return CLI_EXIT_OK;
    }
    for (k = 0; k < p->window; k++) {
        rc = cli_ctx_new(&p->slots[k].ctx);
        if (rc != CLI_EXIT_OK) {
            goto fail;
        }
    }
    rc = CLI_EXIT_USAGE;
    /* The main thread is the last of the jobs threads. */
    p->threads = calloc(jobs - 1, sizeof(*p->threads));
    if (!p->threads) {
        cli_msg("out of memory");
        goto fail;
    }
    /* Without a context of its own, the main thread still runs jobs;
     * they keep nothing from one to the next. */
    if (rpl_ctx_new(&p->main_ctx, NULL, &err) != RPL_OK) {
        p->main_ctx = NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    pthread_cond_init(&p->space_cv, NULL);
    for (k = 0; k + 1 < jobs; k++) {
        const int e = pthread_create(&p->threads[k], NULL, worker, p);

        if (e != 0) {
            cli_msg("cannot start a thread: %s", strerror(e));
            break;
        }
        p->nthreads++;
    }
    /* Fewer threads than asked for, or none, still do every job: the
     * main thread runs what the workers do not take. */
    *out = p;
    return CLI_EXIT_OK;
fail:
    if (p->slots) {
        for (k = 0; k < p->window; k++) {
            rpl_ctx_free(p->slots[k].ctx);
            free(p->slots[k].data);
        }
    }
    rpl_ctx_free(p->ctx);
    rpl_ctx_free(p->main_ctx);
    free(p->threads);
    free(p->slots);
    free(p);
    return CLI_EXIT_USAGE;
}

void *
cli_pool_wait(struct cli_pool *p, size_t i, bool keep_text, int *rc)
{
    struct slot *s = &p->slots[i % p->window];

    if (p->ctx) {
        memset(s->data, 0, p->data_size);
        *rc = p->work(p->ud, p->ctx, i, s->data);
        return s->data;
    }
    pthread_mutex_lock(&p->mu);
    while (!s->is_done) {
        size_t j;

        /* Job i is running in a worker: run the next one here rather
         * than sleep, or sleep when every job is taken. */
        if (take_next(p, &j)) {
            struct slot *t = &p->slots[j % p->window];

            pthread_mutex_unlock(&p->mu);
            thread_ctx = p->main_ctx;
            run_taken(p, j, t);
            thread_ctx = NULL;
            pthread_mutex_lock(&p->mu);
            t->is_done = true;
            continue;
        }
        p->awaited = i;
        p->is_awaiting = true;
        pthread_cond_wait(&p->done_cv, &p->mu);
        p->is_awaiting = false;
    }
    s->is_done = false;
    pthread_mutex_unlock(&p->mu);
    *rc = s->rc;
    if (!keep_text) {
        cli_pool_put_err(p, i);
        cli_pool_put_out(p, i);
    }
    return s->data;
}

void
cli_pool_put_err(struct cli_pool *p, size_t i)
{
    struct slot *s = &p->slots[i % p->window];

    if (s->err) {
        cli_put_text(NULL, 0, s->err, s->err_len);
        free(s->err);
        s->err = NULL;
        s->err_len = 0;
    }
}

void
cli_pool_put_out(struct cli_pool *p, size_t i)
{
    struct slot *s = &p->slots[i % p->window];

    if (s->out) {
        cli_put_text(s->out, s->out_len, NULL, 0);
        free(s->out);
        s->out = NULL;
        s->out_len = 0;
    }
}

void
cli_pool_release(struct cli_pool *p, size_t upto)
{
    if (p->ctx) {
        return;
    }
    pthread_mutex_lock(&p->mu);
    if (upto > p->released) {
        p->released = upto;
        pthread_cond_broadcast(&p->space_cv);
    }
    pthread_mutex_unlock(&p->mu);
}

void
cli_pool_on_drop(struct cli_pool *p, cli_pool_drop drop)
{
    p->drop = drop;
}

void
cli_pool_free(struct cli_pool *p)
{
    size_t k;

    if (!p) {
        return;
    }
    if (!p->ctx) {
        pthread_mutex_lock(&p->mu);
        p->is_stopping = true;
        pthread_cond_broadcast(&p->space_cv);
        pthread_mutex_unlock(&p->mu);
        for (k = 0; k < p->nthreads; k++) {
            pthread_join(p->threads[k], NULL);
        }
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->done_cv);
        pthread_cond_destroy(&p->space_cv);
    }
    for (k = 0; k < p->window; k++) {
        /* A job done ahead of the main thread, which stopped first. */
        if (p->drop && p->slots[k].is_done) {
            p->drop(p->slots[k].data);
        }
        rpl_ctx_free(p->slots[k].ctx);
        free(p->slots[k].data);
        free(p->slots[k].out);
        free(p->slots[k].err);
    }
    rpl_ctx_free(p->ctx);
    rpl_ctx_free(p->main_ctx);
    free(p->threads);
    free(p->slots);
    free(p);
}
