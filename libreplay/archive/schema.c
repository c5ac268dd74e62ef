/*
 * schema.c - the archive's schema as each backend writes it: the steps of
 * the backend's schema file ("-- version N", schema/archive.sql and
 * schema/archive_pg.sql) and, in each step, the games' tables it creates
 * or drops, which the games declare as data (struct rpl__table,
 * games/game.h) and the backend's dialect (struct rpl__sql_dialect,
 * backend.h) writes in its SQL.  Step N is its file's text, then the DROP
 * of each game's table whose until is N, then the CREATE of each whose
 * since is N, in the registry's order and the game's; the tables of the
 * schema are named in the same order (rpl__ar_schema_tables()).
 *
 * A game's names and values are checked here before they are written
 * (plain names, texts without a quote), so a mistake in a game's table
 * is a failure to build the schema, never SQL of its making.
 */
#include <stdio.h>
#include <string.h>

#include "archive.h"

bool
rpl__ar_is_name(const char *s)
{
    if (!s || !*s || strlen(s) >= RPL__AR_TABLE_NAME)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

/* The version a line of a schema file opens, 0 if none. */
static unsigned
step_of(const char *line)
{
    unsigned v;
    char tail;

    if (sscanf(line, "-- version %u%c", &v, &tail) == 1)
        return v;
    return 0;
}

unsigned
rpl__ar_schema_version(const char *const *lines, size_t n)
{
    unsigned last = 0;

    for (size_t i = 0; i < n; i++)
        if (step_of(lines[i]))
            last = step_of(lines[i]);
    return last;
}

/* A list of names, "a, b", each checked. */
static bool
put_names(struct rpl__buf *b, const char *first, const char *const *names)
{
    bool is_ok = true;

    if (first)
        rpl__buf_puts(b, first);
    for (size_t i = 0; names && names[i]; i++) {
        is_ok = is_ok && rpl__ar_is_name(names[i]);
        rpl__buf_printf(b, "%s%s", first || i ? ", " : "", names[i]);
    }
    return is_ok;
}

/* One column: "name TYPE [NOT NULL] [CHECK (name IN (...))]". */
static bool
put_column(struct rpl__buf *b, const struct rpl__sql_dialect *d,
           const struct rpl__column *c)
{
    const bool is_text = c->kind == RPL__CELL_TEXT;
    bool is_ok = rpl__ar_is_name(c->name) &&
                 (is_text || c->kind == RPL__CELL_INT) && !c->in == !c->nin;

    rpl__buf_printf(b, "    %s %s", c->name,
                    is_text ? d->text_type : d->int_type);
    if (c->is_not_null)
        rpl__buf_puts(b, " NOT NULL");
    if (c->nin > 0) {
        rpl__buf_printf(b, " CHECK (%s IN (", c->name);
        for (size_t v = 0; v < c->nin; v++) {
            const struct rpl__cell *x = &c->in[v];

            is_ok = is_ok && x->kind == c->kind;
            if (x->kind == RPL__CELL_TEXT) {
                is_ok = is_ok && x->s && !strpbrk(x->s, "'\n");
                rpl__buf_printf(b, "%s'%s'", v ? ", " : "", x->s ? x->s : "");
            } else {
                rpl__buf_printf(b, "%s%lld", v ? ", " : "", (long long)x->i);
            }
        }
        rpl__buf_puts(b, "))");
    }
    return is_ok;
}

/* A comment to the end of the line, where the dialect keeps them. */
static bool
put_doc(struct rpl__buf *b, const struct rpl__sql_dialect *d, const char *doc)
{
    if (d->has_docs && doc)
        rpl__buf_printf(b, " -- %s", doc);
    return !doc || !strchr(doc, '\n');
}

/* CREATE TABLE and CREATE INDEX of table t, in dialect d. */
static bool
put_create(struct rpl__buf *b, const struct rpl__sql_dialect *d,
           const struct rpl__table *t)
{
    bool is_ok = rpl__ar_is_name(t->name);

    /* A table has gid and at least one column of its game's. */
    if (t->ncols == 0 || !t->col)
        return false;
    rpl__buf_printf(b, "CREATE TABLE %s (", t->name);
    is_ok = put_doc(b, d, t->doc) && is_ok;
    rpl__buf_printf(b,
                    "\n    gid %s %sREFERENCES game (gid) ON DELETE CASCADE,",
                    d->gid_type, t->key ? "NOT NULL " : "PRIMARY KEY ");
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            rpl__buf_puts(b, ",");
        if (i && t->col[i - 1].doc)
            is_ok = put_doc(b, d, t->col[i - 1].doc) && is_ok;
        rpl__buf_puts(b, "\n");
        is_ok = put_column(b, d, &t->col[i]) && is_ok;
    }
    if (t->key) {
        is_ok = t->key[0] && is_ok;
        rpl__buf_puts(b, ",");
    }
    is_ok = put_doc(b, d, t->col[t->ncols - 1].doc) && is_ok;
    if (t->key) {
        rpl__buf_puts(b, "\n    PRIMARY KEY (");
        is_ok = put_names(b, "gid", t->key) && is_ok;
        rpl__buf_puts(b, ")");
    }
    rpl__buf_printf(b, "\n)%s;\n",
                    t->key && d->is_without_rowid ? " WITHOUT ROWID" : "");
    for (size_t i = 0; t->index && t->index[i].name; i++) {
        const struct rpl__table_index *x = &t->index[i];

        is_ok = rpl__ar_is_name(x->name) && x->col && x->col[0] && is_ok;
        rpl__buf_printf(b, "CREATE INDEX %s ON %s (", x->name, t->name);
        is_ok = put_names(b, NULL, x->col) && is_ok;
        rpl__buf_puts(b, ");\n");
    }
    return is_ok;
}

/* Whether a game's table has a place in a schema of last version
 * last: created by a step of it, dropped by a later one if ever. */
static bool
has_place(const struct rpl__table *t, unsigned last)
{
    return t->since >= 1 && t->since <= last &&
           (t->until == 0 || (t->until > t->since && t->until <= last));
}

/* The games' tables that step drops and creates, in dialect d. */
static enum rpl_status
put_step_tables(struct rpl__buf *b, const struct rpl__sql_dialect *d,
                unsigned step, unsigned last, struct rpl_error *err)
{
    for (int is_create = 0; is_create <= 1; is_create++) {
        const struct rpl__game *g;

        for (size_t k = 0; (g = rpl__game_at(k)); k++) {
            const struct rpl__game_archive *a = rpl__archive_hooks(g);

            for (size_t i = 0; i < a->ntables; i++) {
                const struct rpl__table *t = &a->tables[i];
                bool is_ok = has_place(t, last);

                if (!is_create && t->until == step && is_ok) {
                    is_ok = rpl__ar_is_name(t->name);
                    rpl__buf_printf(b, "DROP TABLE %s;\n",
                                    is_ok ? t->name : "");
                } else if (is_create && t->since == step && is_ok) {
                    is_ok = put_create(b, d, t);
                }
                if (!is_ok)
                    return rpl__err(err, RPL_E_STATE, 0,
                                    "game %s: its table %.40s cannot be "
                                    "written in the schema",
                                    g->name, t->name ? t->name : "");
            }
        }
    }
    return RPL_OK;
}

enum rpl_status
rpl__ar_schema_steps(struct rpl_ctx *ctx, const struct rpl__backend *be,
                     unsigned from, unsigned to, char **out,
                     struct rpl_error *err)
{
    const unsigned last = rpl__ar_schema_version(be->schema, be->nschema);
    struct rpl__buf b;
    unsigned step = 0;
    enum rpl_status rc = RPL_OK;

    rpl__buf_init(&b, ctx);
    /* Past the last line, the end of the last step. */
    for (size_t i = 0; rc == RPL_OK && i <= be->nschema; i++) {
        const bool is_end = i == be->nschema;
        const unsigned next = is_end ? 0 : step_of(be->schema[i]);

        if ((next || is_end) && step > from && step <= to)
            rc = put_step_tables(&b, be->dialect, step, last, err);
        if (next)
            step = next;
        if (!is_end && step > from && step <= to) {
            rpl__buf_puts(&b, be->schema[i]);
            rpl__buf_add(&b, "\n", 1);
        }
    }
    if (rc != RPL_OK) {
        rpl__buf_release(&b);
        return rc;
    }
    return rpl__buf_take(&b, out, err);
}

/* Adds a name to the archive's tables. */
static enum rpl_status
add_table(struct rpl_archive *ar, const char *s, size_t n,
          struct rpl_error *err)
{
    if (n == 0 || n >= RPL__AR_TABLE_NAME || ar->ntables == RPL__AR_MAX_TABLES)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the archive's schema has a table it cannot name");
    memcpy(ar->table[ar->ntables], s, n);
    ar->table[ar->ntables][n] = '\0';
    ar->ntables++;
    return RPL_OK;
}

enum rpl_status
rpl__ar_schema_tables(struct rpl_archive *ar, struct rpl_error *err)
{
    static const char create[] = "CREATE TABLE ";
    const struct rpl__backend *be = ar->be;
    const unsigned last = rpl__ar_schema_version(be->schema, be->nschema);
    unsigned step = 0;
    enum rpl_status rc = RPL_OK;

    ar->ntables = 0;
    for (size_t i = 0; rc == RPL_OK && i <= be->nschema; i++) {
        const bool is_end = i == be->nschema;
        const unsigned next = is_end ? 0 : step_of(be->schema[i]);
        const char *s = is_end ? "" : be->schema[i];
        size_t n = 0;

        /* The games' tables of the step that ends here (the current
         * ones: a table dropped since is not the schema's). */
        for (size_t k = 0; (next || is_end) && rpl__game_at(k); k++) {
            const struct rpl__game_archive *a =
                rpl__archive_hooks(rpl__game_at(k));

            for (size_t t = 0; rc == RPL_OK && t < a->ntables; t++) {
                const struct rpl__table *tb = &a->tables[t];

                if (!has_place(tb, last) || !rpl__ar_is_name(tb->name))
                    rc = rpl__err(err, RPL_E_STATE, 0,
                                  "game %s: its table %.40s has no place "
                                  "in the schema",
                                  rpl__game_at(k)->name,
                                  tb->name ? tb->name : "");
                else if (tb->since == step && tb->until == 0)
                    rc = add_table(ar, tb->name, strlen(tb->name), err);
            }
        }
        if (next)
            step = next;
        if (rc != RPL_OK || strncmp(s, create, sizeof(create) - 1) != 0)
            continue;
        s += sizeof(create) - 1;
        if (strncmp(s, "main.", 5) == 0)
            s += 5;
        while ((s[n] >= 'a' && s[n] <= 'z') || s[n] == '_')
            n++;
        rc = add_table(ar, s, n, err);
    }
    return rc;
}
