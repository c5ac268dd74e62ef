/*
 * backend_pg.c - the archive on PostgreSQL (backend.h), with libpq: an
 * archive named by a postgresql:// or postgres:// URI, which many hosts
 * may add to at once.
 *
 * The tables live in the schema main (search_path main), so the
 * archive's SQL names them as it does on SQLite; the schema and its
 * migrations are schema/archive_pg.sql, embedded by the build as
 * archive_pg_sql[], with the version in the schema's comment.  What the
 * SQLite dialect of the games' statements has that PostgreSQL lacks is
 * given by that schema in main, by name: sum(boolean), group_concat(text,
 * text) and boolean * numeric.
 *
 * Parameters ?N, ? and :name are numbered as SQLite numbers them and
 * sent as $N, as text.  A statement's result is read whole at its first
 * step (one connection runs one statement at a time, and the archive
 * steps a statement inside another), but the read-only SQL mode, which
 * runs alone, reads row by row.
 *
 * Writers: a transaction of adds runs at READ COMMITTED; each add first
 * takes a transaction-level advisory lock on its game id, so two hosts
 * adding logs of one game wait for each other and the second sees the
 * first's rows (the unique (id, seal) stands behind it); a deadlock or a
 * serialization failure is RPL_E_BUSY, which the caller may retry.  Reads
 * that need one snapshot run at REPEATABLE READ.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "archive.h"
#include "archive_pg_sql.h"

#define NSCHEMA (sizeof(archive_pg_sql) / sizeof(archive_pg_sql[0]))

/* The schema's comment: this prefix and the version. */
#define VERSION_NOTE "camelog archive, schema version "
/* The role archive sql runs as, where the server has it. */
#define READER "camelog_reader"
/* Serializes creation and migration of the schema (an advisory lock). */
#define MIGRATE_LOCK "7262726172636869"

/* The codes step(), exec() and prepare() return besides RPL__DB_*. */
enum { PG_E_SQL = 1, PG_E_NOMEM = 2, PG_E_CONN = 3 };

/* The OIDs of the types the read-only mode tells apart. */
enum {
    OID_BOOL = 16,
    OID_BYTEA = 17,
    OID_INT8 = 20,
    OID_INT2 = 21,
    OID_INT4 = 23,
    OID_TEXT = 25,
    OID_OID = 26,
    OID_FLOAT4 = 700,
    OID_FLOAT8 = 701,
    OID_NUMERIC = 1700,
    OID_BIT = 1560,
    OID_VARBIT = 1562
};

/* The connection (ar->db). */
struct pg {
    PGconn *c;
    struct rpl_ctx *ctx;
    unsigned next_name;
    /* The last failure: its SQLSTATE and message. */
    char state[6];
    char msg[RPL_ERRMSG_MAX];
};

#define MAX_NAMED 32

/* A statement. */
struct pg_st {
    struct rpl__st base;
    struct pg *pg;
    char *sql; /* with $N */
    char name[24];
    bool is_prepared;
    int nparams;
    Oid *types;
    char **value; /* NULL: SQL NULL */
    size_t nnamed;
    char *named[MAX_NAMED];
    int named_index[MAX_NAMED];
    PGresult *res;
    int row, nrows;
    bool is_run;
    /* Blobs decoded from the row, one a column, until the next step. */
    unsigned char **blob;
    size_t *blob_len;
    int nblob;
};

static struct pg *
pg_of(const struct rpl_archive *ar)
{
    return ar->db;
}

static void
keep_error(struct pg *pg, const PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *msg =
        res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    size_t n;

    snprintf(pg->state, sizeof(pg->state), "%s", state ? state : "");
    if (!msg)
        msg = PQerrorMessage(pg->c);
    snprintf(pg->msg, sizeof(pg->msg), "%s", msg ? msg : "unknown error");
    n = strlen(pg->msg);
    while (n > 0 && (pg->msg[n - 1] == '\n' || pg->msg[n - 1] == ' '))
        pg->msg[--n] = '\0';
}

/* The status of a result: RPL__DB_OK, or PG_E_SQL with the error kept. */
static int
result_rc(struct pg *pg, PGresult *res)
{
    const ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ||
        s == PGRES_SINGLE_TUPLE)
        return RPL__DB_OK;
    keep_error(pg, res);
    if (!res && PQstatus(pg->c) != CONNECTION_OK)
        return PG_E_CONN;
    return res ? PG_E_SQL : PG_E_NOMEM;
}

static bool
state_is(const struct pg *pg, const char *state)
{
    return strcmp(pg->state, state) == 0;
}

static enum rpl_status
pg_fail(const struct rpl_archive *ar, struct rpl_error *err, int rc,
        const char *what)
{
    const struct pg *pg = pg_of(ar);

    if (rc == PG_E_NOMEM || !pg)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    if (state_is(pg, "40001") || state_is(pg, "40P01"))
        return rpl__err(err, RPL_E_BUSY, 0,
                        "%s: %s (another writer; try again)", what, pg->msg);
    if (state_is(pg, "57014"))
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: the statement ran over %u seconds "
                        "(RPL_MAX_SQL_SECONDS)",
                        what, RPL_MAX_SQL_SECONDS);
    if (strncmp(pg->state, "53", 2) == 0 || strncmp(pg->state, "54", 2) == 0)
        return rpl__err(err, RPL_E_LIMIT, 0, "%s: %s", what, pg->msg);
    return rpl__err(err, RPL_E_IO, 0, "%s: %s", what, pg->msg);
}

static int
pg_exec(struct rpl_archive *ar, const char *sql)
{
    struct pg *pg = pg_of(ar);
    PGresult *res = PQexec(pg->c, sql);
    const int rc = result_rc(pg, res);

    PQclear(res);
    return rc;
}

static bool
pg_in_tx(const struct rpl_archive *ar)
{
    const struct pg *pg = pg_of(ar);
    PGTransactionStatusType s;

    if (!pg || !pg->c)
        return false;
    s = PQtransactionStatus(pg->c);
    return s == PQTRANS_INTRANS || s == PQTRANS_INERROR || s == PQTRANS_ACTIVE;
}

/* ------------------------------------------------------- parameters */

static bool
is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Copies sql to b with ?N, ? and :name as $N, numbered as SQLite does
 * (a ? or a new name takes one more than the largest yet), outside
 * quotes and comments; marks the numbers used in used[1..] and the
 * names in st. */
static bool
translate(struct pg_st *st, struct rpl__buf *b, const char *sql, bool *used,
          int max_params)
{
    int largest = 0;

    for (const char *p = sql; *p;) {
        const char c = *p;

        if (c == '\'' || c == '"') {
            const char *q = p + 1;

            while (*q && *q != c)
                q++;
            if (*q)
                q++;
            rpl__buf_add(b, p, (size_t)(q - p));
            p = q;
        } else if (c == '-' && p[1] == '-') {
            const char *q = strchr(p, '\n');

            q = q ? q : p + strlen(p);
            rpl__buf_add(b, p, (size_t)(q - p));
            p = q;
        } else if (c == '/' && p[1] == '*') {
            const char *q = strstr(p + 2, "*/");

            q = q ? q + 2 : p + strlen(p);
            rpl__buf_add(b, p, (size_t)(q - p));
            p = q;
        } else if (c == ':' && p[1] == ':') {
            rpl__buf_add(b, p, 2);
            p += 2;
        } else if (c == '?' || (c == ':' && is_name_char(p[1]))) {
            int n = 0;

            if (c == '?' && p[1] >= '0' && p[1] <= '9') {
                p++;
                while (*p >= '0' && *p <= '9' && n <= max_params)
                    n = n * 10 + (*p++ - '0');
            } else if (c == '?') {
                n = largest + 1;
                p++;
            } else {
                const char *q = p + 1;
                size_t k = 0;

                while (is_name_char(*q))
                    q++;
                for (; k < st->nnamed; k++)
                    if (strlen(st->named[k]) == (size_t)(q - p) &&
                        memcmp(st->named[k], p, (size_t)(q - p)) == 0)
                        break;
                if (k == st->nnamed) {
                    if (k == MAX_NAMED)
                        return false;
                    st->named[k] = rpl__alloc(st->pg->ctx, (size_t)(q - p) + 1);
                    if (!st->named[k])
                        return false;
                    memcpy(st->named[k], p, (size_t)(q - p));
                    st->named[k][q - p] = '\0';
                    st->named_index[k] = largest + 1;
                    st->nnamed++;
                }
                n = st->named_index[k];
                p = q;
            }
            if (n < 1 || n > max_params)
                return false;
            used[n] = true;
            if (n > largest)
                largest = n;
            rpl__buf_printf(b, "$%d", n);
        } else {
            rpl__buf_add(b, p, 1);
            p++;
        }
    }
    st->nparams = largest;
    return !b->failed;
}

/* ------------------------------------------------------- statements */

static void
clear_row(struct pg_st *st)
{
    for (int i = 0; i < st->nblob; i++) {
        PQfreemem(st->blob[i]);
        st->blob[i] = NULL;
    }
}

static void
clear_result(struct pg_st *st)
{
    clear_row(st);
    PQclear(st->res);
    st->res = NULL;
    st->row = -1;
    st->nrows = 0;
    st->is_run = false;
}

static void
pg_finalize(struct rpl__st *base)
{
    struct pg_st *st = (struct pg_st *)base;
    struct rpl_ctx *ctx = st->pg->ctx;

    clear_result(st);
    if (st->is_prepared && st->pg->c) {
        char sql[64];

        snprintf(sql, sizeof(sql), "DEALLOCATE %s", st->name);
        PQclear(PQexec(st->pg->c, sql));
    }
    for (int i = 0; st->value && i < st->nparams; i++)
        rpl__free(ctx, st->value[i]);
    for (size_t k = 0; k < st->nnamed; k++)
        rpl__free(ctx, st->named[k]);
    rpl__free(ctx, st->value);
    rpl__free(ctx, st->types);
    rpl__free(ctx, st->blob);
    rpl__free(ctx, st->blob_len);
    rpl__free(ctx, st->sql);
    rpl__free(ctx, st);
}

static int
pg_prepare(struct rpl_archive *ar, const char *sql, bool is_cached,
           struct rpl__st **out)
{
    struct pg *pg = pg_of(ar);
    struct pg_st *st = rpl__calloc(ar->ctx, 1, sizeof(*st));
    bool used[RPL_MAX_SQL_PARAMS + 1];
    struct rpl__buf b;
    int rc = RPL__DB_OK;

    *out = NULL;
    if (!st)
        return PG_E_NOMEM;
    st->base.be = &rpl__backend_pg;
    st->pg = pg;
    st->row = -1;
    memset(used, 0, sizeof(used));
    rpl__buf_init(&b, ar->ctx);
    if (!translate(st, &b, sql, used, (int)RPL_MAX_SQL_PARAMS) ||
        rpl__buf_take(&b, &st->sql, NULL) != RPL_OK) {
        rpl__buf_release(&b);
        snprintf(pg->state, sizeof(pg->state), "42601");
        snprintf(pg->msg, sizeof(pg->msg), "cannot read the parameters");
        pg_finalize(&st->base);
        return PG_E_SQL;
    }
    st->types =
        rpl__calloc(ar->ctx, (size_t)st->nparams + 1, sizeof(*st->types));
    st->value =
        rpl__calloc(ar->ctx, (size_t)st->nparams + 1, sizeof(*st->value));
    if (!st->types || !st->value) {
        pg_finalize(&st->base);
        return PG_E_NOMEM;
    }
    /* A number the text skips is a text nobody reads. */
    for (int i = 1; i <= st->nparams; i++)
        st->types[i - 1] = used[i] ? 0 : OID_TEXT;
    if (is_cached) {
        PGresult *res;

        snprintf(st->name, sizeof(st->name), "rpl_%u", pg->next_name++);
        res = PQprepare(pg->c, st->name, st->sql, st->nparams, st->types);
        rc = result_rc(pg, res);
        PQclear(res);
        if (rc != RPL__DB_OK) {
            pg_finalize(&st->base);
            return rc;
        }
        st->is_prepared = true;
    }
    *out = &st->base;
    return RPL__DB_OK;
}

static int
pg_param_index(struct rpl__st *base, const char *name)
{
    const struct pg_st *st = (const struct pg_st *)base;

    for (size_t k = 0; k < st->nnamed; k++)
        if (strcmp(st->named[k], name) == 0)
            return st->named_index[k];
    return 0;
}

static int
pg_nparams(struct rpl__st *base)
{
    return ((struct pg_st *)base)->nparams;
}

/* Keeps value v (n bytes, or NULL) for parameter i. */
static void
set_param(struct pg_st *st, int i, const char *v, size_t n)
{
    char *copy = NULL;

    if (i < 1 || i > st->nparams)
        return;
    if (v) {
        copy = rpl__alloc(st->pg->ctx, n + 1);
        if (!copy)
            return; /* sent as NULL: the statement fails its constraint */
        memcpy(copy, v, n);
        copy[n] = '\0';
    }
    rpl__free(st->pg->ctx, st->value[i - 1]);
    st->value[i - 1] = copy;
}

static void
pg_bind_null(struct rpl__st *base, int i)
{
    set_param((struct pg_st *)base, i, NULL, 0);
}

static void
pg_bind_int(struct rpl__st *base, int i, int64_t v)
{
    char s[24];
    const int n = snprintf(s, sizeof(s), "%lld", (long long)v);

    set_param((struct pg_st *)base, i, s, (size_t)n);
}

static void
pg_bind_text(struct rpl__st *base, int i, const char *s, size_t n)
{
    set_param((struct pg_st *)base, i, s, n);
}

/* A blob as bytea's hex input, \x and two digits a byte. */
static void
pg_bind_blob(struct rpl__st *base, int i, const void *p, size_t n)
{
    struct pg_st *st = (struct pg_st *)base;
    char *hex;

    if (n > (SIZE_MAX - 3) / 2)
        return;
    hex = rpl__alloc(st->pg->ctx, 2 * n + 3);
    if (!hex)
        return;
    hex[0] = '\\';
    hex[1] = 'x';
    rpl__hex(hex + 2, p, n);
    set_param(st, i, hex, 2 * n + 2);
    rpl__free(st->pg->ctx, hex);
}

static int
pg_step(struct rpl__st *base)
{
    struct pg_st *st = (struct pg_st *)base;
    struct pg *pg = st->pg;

    clear_row(st);
    if (!st->is_run) {
        PGresult *res;
        int rc;

        if (st->is_prepared)
            res = PQexecPrepared(pg->c, st->name, st->nparams,
                                 (const char *const *)st->value, NULL, NULL, 0);
        else
            res = PQexecParams(pg->c, st->sql, st->nparams, st->types,
                               (const char *const *)st->value, NULL, NULL, 0);
        rc = result_rc(pg, res);
        if (rc != RPL__DB_OK) {
            PQclear(res);
            return rc;
        }
        st->res = res;
        st->nrows = PQresultStatus(res) == PGRES_TUPLES_OK ? PQntuples(res) : 0;
        st->row = -1;
        st->is_run = true;
        if (!st->blob && PQnfields(res) > 0) {
            st->blob =
                rpl__calloc(pg->ctx, (size_t)PQnfields(res), sizeof(*st->blob));
            st->blob_len = rpl__calloc(pg->ctx, (size_t)PQnfields(res),
                                       sizeof(*st->blob_len));
            if (!st->blob || !st->blob_len)
                return PG_E_NOMEM;
            st->nblob = PQnfields(res);
        }
    }
    if (st->row + 1 < st->nrows) {
        st->row++;
        return RPL__DB_ROW;
    }
    st->row = st->nrows;
    return RPL__DB_DONE;
}

static void
pg_reset(struct rpl__st *base)
{
    struct pg_st *st = (struct pg_st *)base;

    clear_result(st);
    for (int i = 0; i < st->nparams; i++) {
        rpl__free(st->pg->ctx, st->value[i]);
        st->value[i] = NULL;
    }
}

static bool
has_cell(const struct pg_st *st, int i)
{
    return st->res && st->row >= 0 && st->row < st->nrows && i >= 0 &&
           i < PQnfields(st->res);
}

static int
pg_ncols(struct rpl__st *base)
{
    const struct pg_st *st = (const struct pg_st *)base;

    return st->res ? PQnfields(st->res) : 0;
}

static bool
pg_is_null(struct rpl__st *base, int i)
{
    const struct pg_st *st = (const struct pg_st *)base;

    return !has_cell(st, i) || PQgetisnull(st->res, st->row, i);
}

static const char *
pg_col_text(struct rpl__st *base, int i)
{
    const struct pg_st *st = (const struct pg_st *)base;

    if (pg_is_null(base, i))
        return NULL;
    return PQgetvalue(st->res, st->row, i);
}

static int64_t
pg_col_int(struct rpl__st *base, int i)
{
    const char *s = pg_col_text(base, i);

    if (!s)
        return 0;
    if (s[0] == 't' && s[1] == '\0')
        return 1;
    return (int64_t)strtoll(s, NULL, 10);
}

static double
pg_col_double(struct rpl__st *base, int i)
{
    const char *s = pg_col_text(base, i);

    if (!s)
        return 0.0;
    if (s[0] == 't' && s[1] == '\0')
        return 1.0;
    return strtod(s, NULL);
}

static const void *
pg_col_blob(struct rpl__st *base, int i, size_t *n)
{
    struct pg_st *st = (struct pg_st *)base;
    const char *s = pg_col_text(base, i);

    *n = 0;
    if (!s || i >= st->nblob)
        return NULL;
    if (!st->blob[i])
        st->blob[i] =
            PQunescapeBytea((const unsigned char *)s, &st->blob_len[i]);
    if (!st->blob[i])
        return NULL;
    *n = st->blob_len[i];
    return st->blob[i];
}

/* -------------------------------------------------------- the schema */

static enum rpl_status
pg_run(struct rpl_archive *ar, const char *sql, const char *what,
       struct rpl_error *err)
{
    return rpl__ar_exec(ar, sql, what, err);
}

/* The archive's version (0: no schema main) and whether main holds
 * tables of another's. */
static enum rpl_status
read_version(struct rpl_archive *ar, unsigned *version, bool *is_other,
             struct rpl_error *err)
{
    struct pg *pg = pg_of(ar);
    PGresult *res =
        PQexec(pg->c, "SELECT obj_description(n.oid, 'pg_namespace'), (SELECT "
                      "count(*) FROM pg_class c WHERE c.relnamespace = n.oid) "
                      "FROM pg_namespace n WHERE n.nspname = 'main'");
    const int rc = result_rc(pg, res);

    *version = 0;
    *is_other = false;
    if (rc != RPL__DB_OK) {
        PQclear(res);
        return pg_fail(ar, err, rc, "cannot read the archive");
    }
    if (PQntuples(res) == 1) {
        const char *note = PQgetvalue(res, 0, 0);
        const long objects = strtol(PQgetvalue(res, 0, 1), NULL, 10);
        const size_t k = sizeof(VERSION_NOTE) - 1;

        if (!PQgetisnull(res, 0, 0) && strncmp(note, VERSION_NOTE, k) == 0)
            *version = (unsigned)strtoul(note + k, NULL, 10);
        else if (objects > 0)
            *is_other = true;
    }
    PQclear(res);
    return RPL_OK;
}

/* Grants the reader role what archive sql reads, where it exists. */
static const char grant_sql[] =
    "DO $$ BEGIN "
    "IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" READER "') "
    "THEN CREATE ROLE " READER " NOLOGIN; END IF; "
    "GRANT USAGE ON SCHEMA main TO " READER "; "
    "GRANT SELECT ON ALL TABLES IN SCHEMA main TO " READER "; "
    "EXCEPTION WHEN insufficient_privilege OR duplicate_object THEN NULL; "
    "END $$";

/* Brings the schema to want, in one transaction under an advisory lock
 * (another host may be creating it). */
static enum rpl_status
migrate(struct rpl_archive *ar, unsigned want, struct rpl_error *err)
{
    unsigned version = 0;
    bool is_other = false;
    char *sql = NULL;
    char set[96];
    enum rpl_status rc;

    rc = pg_run(ar, "BEGIN", "cannot lock the archive", err);
    if (rc == RPL_OK)
        rc = pg_run(ar, "SELECT pg_advisory_xact_lock(" MIGRATE_LOCK ")",
                    "cannot lock the archive", err);
    if (rc == RPL_OK)
        rc = read_version(ar, &version, &is_other, err);
    if (rc == RPL_OK && is_other)
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "not a camelog archive (a schema main with other "
                      "tables)");
    if (rc != RPL_OK || version >= want) {
        if (rc == RPL_OK)
            ar->version = version;
        goto out;
    }
    rc = rpl__ar_schema_steps(ar->ctx, &rpl__backend_pg, version, want, &sql,
                              err);
    if (rc == RPL_OK)
        rc = pg_run(ar, sql, "cannot create the schema", err);
    if (rc == RPL_OK && version >= 1)
        rc = rpl__ar_reindex_all(ar, err);
    snprintf(set, sizeof(set), "COMMENT ON SCHEMA main IS '" VERSION_NOTE "%u'",
             want);
    if (rc == RPL_OK)
        rc = pg_run(ar, set, "cannot set the schema version", err);
    if (rc == RPL_OK)
        rc = pg_run(ar, grant_sql, "cannot grant the reader role", err);
    if (rc == RPL_OK)
        rc = pg_run(ar, "COMMIT", "cannot commit the schema", err);
    if (rc == RPL_OK)
        ar->version = want;
out:
    rpl_free(ar->ctx, sql);
    rpl__ar_end(ar, false);
    return rc;
}

/* The objects of main that the schema does not make: tables, views and
 * triggers by name, and the schema's tables and views missing. */
static enum rpl_status
pg_schema_diff(struct rpl_archive *ar, void (*each)(void *ud, const char *msg),
               void *ud, size_t *n, struct rpl_error *err)
{
    static const char *const views[] = {"seat_result"};
    struct pg *pg = pg_of(ar);
    bool seen[RPL__AR_MAX_TABLES + 1];
    char msg[RPL_ERRMSG_MAX];
    PGresult *res;
    int rc;

    *n = 0;
    memset(seen, 0, sizeof(seen));
    res = PQexec(pg->c,
                 "SELECT CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN "
                 "'view' ELSE 'table' END, c.relname FROM pg_class c JOIN "
                 "pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = "
                 "'main' AND c.relkind IN ('r', 'v', 'm', 'f', 'p') "
                 "UNION ALL SELECT 'trigger', t.tgname FROM pg_trigger t "
                 "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace s "
                 "ON s.oid = c.relnamespace WHERE s.nspname = 'main' AND NOT "
                 "t.tgisinternal ORDER BY 1, 2");
    rc = result_rc(pg, res);
    if (rc != RPL__DB_OK) {
        PQclear(res);
        return pg_fail(ar, err, rc, "cannot read the archive's schema");
    }
    for (int r = 0; r < PQntuples(res); r++) {
        const char *type = PQgetvalue(res, r, 0);
        const char *name = PQgetvalue(res, r, 1);
        bool is_ours = false;

        if (strcmp(type, "table") == 0) {
            for (size_t i = 0; i < ar->ntables && !is_ours; i++)
                if (strcmp(ar->table[i], name) == 0)
                    is_ours = seen[i] = true;
        } else if (strcmp(type, "view") == 0) {
            is_ours = strcmp(name, views[0]) == 0;
            if (is_ours)
                seen[RPL__AR_MAX_TABLES] = true;
        }
        if (is_ours)
            continue;
        snprintf(msg, sizeof(msg), "schema: %.16s %.64s is not this library's",
                 type, name);
        ++*n;
        if (each)
            each(ud, msg);
    }
    PQclear(res);
    for (size_t i = 0; i <= ar->ntables; i++) {
        const size_t k = i == ar->ntables ? RPL__AR_MAX_TABLES : i;

        if (seen[k])
            continue;
        snprintf(msg, sizeof(msg), "schema: %s %.64s is missing",
                 k == RPL__AR_MAX_TABLES ? "view" : "table",
                 k == RPL__AR_MAX_TABLES ? views[0] : ar->table[i]);
        ++*n;
        if (each)
            each(ud, msg);
    }
    return RPL_OK;
}

/* Keeps the first difference as the handle's warning. */
static void
keep_warning(void *ud, const char *msg)
{
    struct rpl_archive *ar = ud;

    if (!ar->warning) {
        const size_t n = strlen(msg);

        ar->warning = rpl__alloc(ar->ctx, n + 1);
        if (ar->warning)
            memcpy(ar->warning, msg, n + 1);
    }
}

/* -------------------------------------------------------- open, close */

static void
ignore_notice(void *ud, const char *msg)
{
    (void)ud;
    (void)msg;
}

static bool
pg_claims(const char *where)
{
    return strncmp(where, "postgresql://", 13) == 0 ||
           strncmp(where, "postgres://", 11) == 0;
}

static enum rpl_status
pg_open(struct rpl_archive *ar, const char *uri, enum rpl_archive_mode mode,
        struct rpl_error *err)
{
    const unsigned want = rpl__ar_schema_version(archive_pg_sql, NSCHEMA);
    struct pg *pg = rpl__calloc(ar->ctx, 1, sizeof(*pg));
    unsigned version = 0;
    bool is_other = false;
    enum rpl_status rc;

    if (!pg)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    pg->ctx = ar->ctx;
    ar->db = pg;
    pg->c = PQconnectdb(uri);
    if (!pg->c)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    if (PQstatus(pg->c) != CONNECTION_OK) {
        keep_error(pg, NULL);
        return rpl__err(err, RPL_E_IO, 0, "cannot open the archive: %s",
                        pg->msg);
    }
    PQsetNoticeProcessor(pg->c, ignore_notice, NULL);
    rc = pg_run(ar,
                "SET search_path = main; SET client_encoding = 'UTF8'; "
                "SET client_min_messages = warning",
                "cannot open the archive", err);
    if (rc == RPL_OK)
        rc = read_version(ar, &version, &is_other, err);
    if (rc != RPL_OK)
        return rc;
    if (version > want)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "the archive is at schema version %u, newer than "
                        "this library's (%u)",
                        version, want);
    if (is_other)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "not a camelog archive (a schema main with other "
                        "tables)");
    if (version < want && mode == RPL_ARCHIVE_READ)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        version == 0 ? "not a camelog archive (no schema main)"
                                     : "the archive is at schema version %u: "
                                       "add to it once to migrate it",
                        version);
    ar->version = version;
    if (version > 0) {
        rc = pg_schema_diff(ar, keep_warning, ar, &ar->nforeign, err);
        if (rc == RPL_OK && ar->nforeign > 0 && !ar->warning)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        if (rc != RPL_OK)
            return rc;
    }
    if (mode != RPL_ARCHIVE_READ && ar->nforeign > 0)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "%s (%zu %s): not writing to it", ar->warning,
                        ar->nforeign,
                        ar->nforeign == 1 ? "difference" : "differences");
    if (version < want)
        rc = migrate(ar, want, err);
    return rc;
}

static void
pg_close(struct rpl_archive *ar)
{
    struct pg *pg = ar->db;

    if (!pg)
        return;
    if (pg->c)
        PQfinish(pg->c);
    rpl__free(ar->ctx, pg);
    ar->db = NULL;
}

/* --------------------------------------------------------------- hooks */

static enum rpl_status
pg_lock_game(struct rpl_archive *ar, const char *id, struct rpl_error *err)
{
    struct pg *pg = pg_of(ar);
    const char *values[1] = {id};
    PGresult *res = PQexecParams(
        pg->c, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", 1, NULL,
        values, NULL, NULL, 0);
    const int rc = result_rc(pg, res);

    PQclear(res);
    if (rc != RPL__DB_OK)
        return pg_fail(ar, err, rc, "cannot lock the game");
    return RPL_OK;
}

/* The server keeps its own keys and pages: nothing to check here. */
static enum rpl_status
pg_integrity(struct rpl_archive *ar,
             void (*each)(void *ud, const struct rpl_error *e), void *ud,
             struct rpl_error *err)
{
    (void)ar;
    (void)each;
    (void)ud;
    (void)err;
    return RPL_OK;
}

static enum rpl_status
pg_temp_writes(struct rpl_archive *ar, bool is_on, struct rpl_error *err)
{
    (void)ar;
    (void)is_on;
    (void)err;
    return RPL_OK;
}

/* ------------------------------------------------------------ read-only */

/* A value as the read-only mode reports it: booleans as 1 and 0, a
 * numeric without a fraction as an integer, and a fraction without its
 * trailing zeros (as SQLite prints a real), then in *buf. */
static const char *
sql_value(struct rpl_ctx *ctx, Oid type, const char *s, enum rpl_sql_type *t,
          char **buf)
{
    switch (type) {
    case OID_BOOL:
        *t = RPL_SQL_INTEGER;
        return s[0] == 't' ? "1" : "0";
    case OID_INT2:
    case OID_INT4:
    case OID_INT8:
    case OID_OID:
        *t = RPL_SQL_INTEGER;
        return s;
    case OID_FLOAT4:
    case OID_FLOAT8:
        *t = RPL_SQL_REAL;
        return s;
    case OID_NUMERIC: {
        const char *dot = strchr(s, '.');
        size_t n = strlen(s);

        if (!dot) {
            *t = RPL_SQL_INTEGER;
            return s;
        }
        *t = RPL_SQL_REAL;
        *buf = rpl__alloc(ctx, n + 1);
        if (!*buf)
            return s;
        memcpy(*buf, s, n + 1);
        while (n > (size_t)(dot - s) + 2 && (*buf)[n - 1] == '0')
            (*buf)[--n] = '\0';
        return *buf;
    }
    default:
        *t = RPL_SQL_TEXT;
        return s;
    }
}

/* A bit string of whole bytes ("00001111...") as hex, in *buf. */
static const char *
bits_hex(struct rpl_ctx *ctx, const char *bits, char **buf)
{
    static const char hexd[] = "0123456789abcdef";
    const size_t n = strlen(bits);

    *buf = rpl__alloc(ctx, n / 4 + 1);
    if (!*buf)
        return bits;
    for (size_t i = 0; i < n / 4; i++) {
        unsigned v = 0;

        for (size_t k = 0; k < 4; k++)
            v = v * 2 + (bits[4 * i + k] == '1');
        (*buf)[i] = hexd[v];
    }
    (*buf)[n / 4] = '\0';
    return *buf;
}

static enum rpl_status
pg_sql(struct rpl_archive *ar, const char *sql,
       bool (*each)(void *ud, size_t ncols, const char *const *names,
                    const char *const *values, const enum rpl_sql_type *types),
       void *ud, struct rpl_error *err)
{
    struct pg *pg = pg_of(ar);
    const char **names = NULL, **values = NULL;
    enum rpl_sql_type *types = NULL;
    char **bufs = NULL;
    size_t ncols = 0;
    bool go_on = true, has_tx = false;
    char set[96];
    PGresult *res = NULL;
    enum rpl_status rc;
    int src;

    if (ar->in_batch)
        return rpl__err(err, RPL_E_STATE, 0,
                        "commit or roll back the batch first");
    rc = pg_run(ar, "BEGIN READ ONLY", "cannot read the archive", err);
    if (rc != RPL_OK)
        return rc;
    has_tx = true;
    snprintf(set, sizeof(set), "SET LOCAL statement_timeout = '%us'",
             RPL_MAX_SQL_SECONDS);
    rc = pg_run(ar, set, "cannot read the archive", err);
    /* The reader role where the server has it (made by the schema, when
     * the archive's creator could): it reads main and nothing more. */
    if (rc == RPL_OK) {
        (void)pg_exec(ar, "SAVEPOINT rpl_reader");
        if (pg_exec(ar, "SET LOCAL ROLE " READER) != RPL__DB_OK)
            (void)pg_exec(ar, "ROLLBACK TO rpl_reader");
    }
    if (rc != RPL_OK)
        goto out;
    /* One statement (PQsendQueryParams takes no more), read row by row. */
    if (!PQsendQueryParams(pg->c, sql, 0, NULL, NULL, NULL, NULL, 0) ||
        !PQsetSingleRowMode(pg->c)) {
        keep_error(pg, NULL);
        rc = rpl__err(err, RPL_E_ARG, 0, "%s", pg->msg);
        goto out;
    }
    while ((res = PQgetResult(pg->c))) {
        const ExecStatusType s = PQresultStatus(res);

        if (s == PGRES_SINGLE_TUPLE && go_on && rc == RPL_OK) {
            if (!names) {
                ncols = (size_t)PQnfields(res);
                names = rpl__calloc(ar->ctx, ncols + 1, sizeof(*names));
                values = rpl__calloc(ar->ctx, ncols + 1, sizeof(*values));
                types = rpl__calloc(ar->ctx, ncols + 1, sizeof(*types));
                bufs = rpl__calloc(ar->ctx, ncols + 1, sizeof(*bufs));
                if (!names || !values || !types || !bufs) {
                    rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                    PQclear(res);
                    continue;
                }
            }
            for (size_t i = 0; i < ncols; i++) {
                const int c = (int)i;
                const char *v = PQgetvalue(res, 0, c);
                const Oid type = PQftype(res, c);

                names[i] = PQfname(res, c);
                rpl__free(ar->ctx, bufs[i]);
                bufs[i] = NULL;
                if (PQgetisnull(res, 0, c)) {
                    types[i] = RPL_SQL_NULL;
                    values[i] = NULL;
                } else if (type == OID_BYTEA) {
                    types[i] = RPL_SQL_BLOB;
                    values[i] = v[0] == '\\' && v[1] == 'x' ? v + 2 : v;
                } else if ((type == OID_BIT || type == OID_VARBIT) &&
                           strlen(v) % 8 == 0) {
                    /* SQLite's blob literal x'00ff' is a bit string here:
                     * its bytes, in hex, as a blob's. */
                    types[i] = RPL_SQL_BLOB;
                    values[i] = bits_hex(ar->ctx, v, &bufs[i]);
                } else {
                    values[i] =
                        sql_value(ar->ctx, type, v, &types[i], &bufs[i]);
                }
            }
            go_on = each(ud, ncols, names, values, types);
            if (!go_on) {
                char errbuf[256];
                PGcancel *cancel = PQgetCancel(pg->c);

                if (cancel) {
                    (void)PQcancel(cancel, errbuf, sizeof(errbuf));
                    PQfreeCancel(cancel);
                }
            }
        } else if (s == PGRES_FATAL_ERROR && go_on && rc == RPL_OK) {
            keep_error(pg, res);
            if (state_is(pg, "25006") || state_is(pg, "42501"))
                rc = rpl__err(err, RPL_E_ARG, 0,
                              "the archive is read-only here: only "
                              "statements that read are allowed");
            else if (strncmp(pg->state, "42", 2) == 0 ||
                     strncmp(pg->state, "22", 2) == 0)
                rc = rpl__err(err, RPL_E_ARG, 0, "%s", pg->msg);
            else
                rc = pg_fail(ar, err, PG_E_SQL, "cannot run the statement");
        }
        PQclear(res);
        /* Names of the last row's result, now freed, are not used again. */
        if (names)
            for (size_t i = 0; i < ncols; i++)
                names[i] = NULL;
    }
out:
    src = has_tx ? pg_exec(ar, "ROLLBACK") : RPL__DB_OK;
    (void)src;
    for (size_t i = 0; bufs && i < ncols; i++)
        rpl__free(ar->ctx, bufs[i]);
    rpl__free(ar->ctx, bufs);
    rpl__free(ar->ctx, types);
    rpl__free(ar->ctx, values);
    rpl__free(ar->ctx, names);
    return rc;
}

/* The games' tables as schema/archive_pg.sql writes its own: gid as
 * game (gid)'s, texts compared as bytes. */
static const struct rpl__sql_dialect pg_dialect = {
    .gid_type = "bigint",
    .int_type = "integer",
    .text_type = "text COLLATE \"C\"",
    .is_without_rowid = false,
    .has_docs = false,
};

const struct rpl__backend rpl__backend_pg = {
    .name = "postgresql",
    .schema = archive_pg_sql,
    .nschema = NSCHEMA,
    .dialect = &pg_dialect,
    .temp_prefix = "pg_temp.chk_",
    .begin_write = "BEGIN",
    .begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ",
    .claims = pg_claims,
    .open = pg_open,
    .close = pg_close,
    .fail = pg_fail,
    .exec = pg_exec,
    .in_tx = pg_in_tx,
    .prepare = pg_prepare,
    .param_index = pg_param_index,
    .nparams = pg_nparams,
    .bind_null = pg_bind_null,
    .bind_int = pg_bind_int,
    .bind_text = pg_bind_text,
    .bind_blob = pg_bind_blob,
    .step = pg_step,
    .reset = pg_reset,
    .finalize = pg_finalize,
    .ncols = pg_ncols,
    .is_null = pg_is_null,
    .col_int = pg_col_int,
    .col_double = pg_col_double,
    .col_text = pg_col_text,
    .col_blob = pg_col_blob,
    .lock_game = pg_lock_game,
    .schema_diff = pg_schema_diff,
    .integrity = pg_integrity,
    .temp_writes = pg_temp_writes,
    .read_rows = rpl__sql_read_rows,
    .sql = pg_sql,
};
