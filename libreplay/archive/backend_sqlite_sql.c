/*
 * backend_sqlite_sql.c - the SQLite backend's read-only SQL mode (the
 * door's sql, for camelog archive sql): an authorizer lets a statement
 * read and nothing else, and each row reaches the caller as texts (blobs
 * in hex); and what both files of the backend share, its errors and its
 * progress handler, the step, memory and time budgets.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backend_sqlite.h"

enum rpl_status
rpl__sq_fail(const struct rpl_archive *ar, struct rpl_error *err, int rc,
             const char *what)
{
    const struct rpl__sq *q = ar->db;
    const int prim = rc & 0xff;
    enum rpl_status code = RPL_E_IO;

    if (prim == SQLITE_NOMEM)
        code = RPL_E_NOMEM;
    else if (prim == SQLITE_INTERRUPT && q && q->is_over_budget)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: the statement ran over its budget of %llu "
                        "steps (RPL_MAX_SQL_STEPS, RPL_MAX_SQL_STEPS_PER_PAGE)",
                        what, (unsigned long long)q->budget);
    else if (prim == SQLITE_INTERRUPT && q && q->is_over_heap)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: the statement took over %u MiB of memory "
                        "(RPL_MAX_SQL_HEAP)",
                        what, RPL_MAX_SQL_HEAP / (1024u * 1024u));
    else if (prim == SQLITE_INTERRUPT && q && q->is_over_time)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: the statement ran over %u seconds "
                        "(RPL_MAX_SQL_SECONDS)",
                        what, RPL_MAX_SQL_SECONDS);
    else if (prim == SQLITE_TOOBIG)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: a string or blob over %u bytes "
                        "(RPL_MAX_SQL_VALUE)",
                        what, RPL_MAX_SQL_VALUE);
    else if (prim == SQLITE_NOTADB)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "not a camelog archive (not an SQLite database)");
    return rpl__err(err, code, 0, "%s: %s", what,
                    q && q->db && sqlite3_errcode(q->db) == rc
                        ? sqlite3_errmsg(q->db)
                        : sqlite3_errstr(rc));
}

/* Counts tick steps a call (a statement that starts alone resets the
 * count: backend_sqlite.c's on_stmt), and stops the statement over its
 * budget, or a typed one over its memory or its time. */
int
rpl__sq_on_progress(void *ud)
{
    struct rpl__sq *q = ud;

    q->steps += q->tick;
    if (q->steps > q->budget) {
        q->is_over_budget = true;
        return 1;
    }
    if (q->heap_cap > 0 && sqlite3_memory_used() > q->heap_cap) {
        q->is_over_heap = true;
        return 1;
    }
    if (q->end_s > 0) {
        struct timespec now;

        if (clock_gettime(CLOCK_MONOTONIC, &now) == 0 &&
            (now.tv_sec > q->end_s ||
             (now.tv_sec == q->end_s && now.tv_nsec >= q->end_ns))) {
            q->is_over_time = true;
            return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- sql */

/* Pragmas that only read (with an argument that names a table or an
 * index, never one that sets a value). */
static bool
pragma_reads(const char *name, const char *arg)
{
    static const char *const with_arg[] = {
        "table_info",        "table_xinfo",     "index_list",
        "index_info",        "index_xinfo",     "foreign_key_list",
        "foreign_key_check", "integrity_check", "quick_check",
    };
    static const char *const no_arg[] = {
        "user_version",   "schema_version", "application_id",  "page_count",
        "page_size",      "freelist_count", "compile_options", "database_list",
        "collation_list", "function_list",  "pragma_list",     "table_list",
        "encoding",       "journal_mode",
    };

    if (!name)
        return false;
    for (size_t i = 0; i < sizeof(with_arg) / sizeof(with_arg[0]); i++)
        if (strcmp(name, with_arg[i]) == 0)
            return true;
    if (arg)
        return false;
    for (size_t i = 0; i < sizeof(no_arg) / sizeof(no_arg[0]); i++)
        if (strcmp(name, no_arg[i]) == 0)
            return true;
    return false;
}

/* The functions a statistics user needs, and nothing that reaches
 * outside the values: no fts3_tokenizer() (an address of libsqlite3),
 * no load_extension(), no randomblob() or zeroblob() (memory), no
 * sqlite_*() internals.  Compared without regard to case, as SQLite
 * does. */
static const char *const functions[] = {
    /* scalar */
    "abs",
    "char",
    "coalesce",
    "concat",
    "concat_ws",
    "format",
    "glob",
    "hex",
    "ifnull",
    "iif",
    "instr",
    "length",
    "like",
    "likelihood",
    "likely",
    "lower",
    "ltrim",
    "max",
    "min",
    "nullif",
    "octet_length",
    "printf",
    "quote",
    "random",
    "replace",
    "round",
    "rtrim",
    "sign",
    "substr",
    "substring",
    "trim",
    "typeof",
    "unicode",
    "unlikely",
    "upper",
    /* the connection's counters, SQLite's version */
    "changes",
    "total_changes",
    "sqlite_version",
    /* aggregate */
    "avg",
    "count",
    "group_concat",
    "string_agg",
    "sum",
    "total",
    /* date and time */
    "date",
    "time",
    "datetime",
    "julianday",
    "unixepoch",
    "strftime",
    "timediff",
    /* JSON */
    "json",
    "json_array",
    "json_array_length",
    "json_extract",
    "json_insert",
    "json_object",
    "json_patch",
    "json_remove",
    "json_replace",
    "json_set",
    "json_type",
    "json_valid",
    "json_quote",
    "json_group_array",
    "json_group_object",
    "->",
    "->>",
    /* math */
    "acos",
    "asin",
    "atan",
    "atan2",
    "ceil",
    "ceiling",
    "cos",
    "degrees",
    "exp",
    "floor",
    "ln",
    "log",
    "log10",
    "log2",
    "mod",
    "pi",
    "pow",
    "power",
    "radians",
    "sin",
    "sqrt",
    "tan",
    "trunc",
    /* window */
    "row_number",
    "rank",
    "dense_rank",
    "percent_rank",
    "cume_dist",
    "ntile",
    "lag",
    "lead",
    "first_value",
    "last_value",
    "nth_value",
};

static bool
function_allowed(const char *name)
{
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
        if (sqlite3_stricmp(name, functions[i]) == 0)
            return true;
    return false;
}

/* What the authorizer refused first: a function by name, or any other
 * action. */
struct refusal {
    bool is_refused;
    char function[64];
};

/* Lets a statement read and call the functions above, nothing else (no
 * write, attach, schema or transaction change). */
static int
authorize_read(void *ud, int action, const char *a3, const char *a4,
               const char *db, const char *trigger)
{
    struct refusal *r = ud;

    (void)db;
    (void)trigger;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        if (function_allowed(a4))
            return SQLITE_OK;
        if (!r->is_refused)
            snprintf(r->function, sizeof(r->function), "%s", a4 ? a4 : "?");
        r->is_refused = true;
        return SQLITE_DENY;
    case SQLITE_PRAGMA:
        if (pragma_reads(a3, a4))
            return SQLITE_OK;
        r->is_refused = true;
        return SQLITE_DENY;
    default:
        r->is_refused = true;
        return SQLITE_DENY;
    }
}

static bool
is_blank_sql(const char *s)
{
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ';')
            s++;
        if (s[0] == '-' && s[1] == '-') {
            s = strchr(s, '\n');
            if (!s)
                return true;
        } else if (s[0] == '/' && s[1] == '*') {
            s = strstr(s + 2, "*/");
            if (!s)
                return true;
            s += 2;
        } else {
            return *s == '\0';
        }
    }
}

/* ------------------------------------------------------------- printf */

/* printf() and format() of a typed statement.  SQLite 3.40's own repeats
 * the character of %c once for each unit of the precision, ignoring the
 * length limit once it is reached (2^31 of them: half a minute in one
 * step), and allocates a %d's precision at once; so each width and
 * precision, written in the format or taken from an argument ('*'), is
 * checked first, and only then does SQLite's printf() run, on a private
 * connection with the same length limit. */
struct sql_printf {
    sqlite3 *db;
    sqlite3_stmt *st[RPL_MAX_SQL_ARGS + 1]; /* by number of arguments */
};

/* Whether a width or precision of n (or -n) is within the limit. */
static bool
is_width_ok(sqlite3_int64 n)
{
    return n >= -(sqlite3_int64)RPL_MAX_SQL_VALUE &&
           n <= (sqlite3_int64)RPL_MAX_SQL_VALUE;
}

/* Walks the format as SQLite's printf() reads it: flags, a width, a
 * precision, then a conversion that takes the next argument (all but %%
 * and %n); an unknown conversion ends the output. */
static bool
is_format_ok(const unsigned char *f, int argc, sqlite3_value **argv)
{
    int next = 1;

    while (f && *f) {
        if (*f++ != '%')
            continue;
        while (*f && strchr("-+ #!0,", *f))
            f++;
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (*f != '.')
                    break;
                f++;
            }
            if (*f == '*') {
                if (next < argc &&
                    !is_width_ok(sqlite3_value_int64(argv[next])))
                    return false;
                next++;
                f++;
                continue;
            }
            sqlite3_int64 n = 0;

            while (*f >= '0' && *f <= '9') {
                n = n * 10 + (*f++ - '0');
                if (!is_width_ok(n))
                    return false;
            }
        }
        while (*f == 'l')
            f++;
        if (!*f)
            break;
        if (*f != '%' && *f != 'n')
            next++;
        f++;
    }
    return true;
}

static void
checked_printf(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    struct sql_printf *p = sqlite3_user_data(cx);
    sqlite3_stmt *st;
    int src;

    if (argc < 1 || argc > (int)RPL_MAX_SQL_ARGS)
        return;
    if (!is_format_ok(sqlite3_value_text(argv[0]), argc, argv)) {
        char msg[128];

        snprintf(msg, sizeof(msg),
                 "printf(): a width or precision over %u "
                 "(RPL_MAX_SQL_VALUE)",
                 RPL_MAX_SQL_VALUE);
        sqlite3_result_error(cx, msg, -1);
        sqlite3_result_error_code(cx, SQLITE_TOOBIG);
        return;
    }
    st = p->st[argc];
    if (!st) {
        char sql[16 + 4 * RPL_MAX_SQL_ARGS];
        size_t n = (size_t)snprintf(sql, sizeof(sql), "SELECT printf(?1");

        for (int i = 2; i <= argc; i++)
            n += (size_t)snprintf(sql + n, sizeof(sql) - n, ",?%d", i);
        snprintf(sql + n, sizeof(sql) - n, ")");
        if (sqlite3_prepare_v2(p->db, sql, -1, &p->st[argc], NULL) !=
            SQLITE_OK) {
            sqlite3_result_error_nomem(cx);
            return;
        }
        st = p->st[argc];
    }
    for (int i = 0; i < argc; i++)
        sqlite3_bind_value(st, i + 1, argv[i]);
    src = sqlite3_step(st);
    if (src == SQLITE_ROW)
        sqlite3_result_value(cx, sqlite3_column_value(st, 0));
    else if ((src & 0xff) == SQLITE_NOMEM)
        sqlite3_result_error_nomem(cx);
    else
        sqlite3_result_error(cx, sqlite3_errmsg(p->db), -1);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/* Puts checked_printf() in place of printf() and format() (0 on
 * success, an SQLite status else). */
static int
printf_start(struct rpl_archive *ar, struct sql_printf *p)
{
    static const char *const names[] = {"printf", "format"};
    int src;

    memset(p, 0, sizeof(*p));
    src = sqlite3_open_v2(":memory:", &p->db,
                          SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (src != SQLITE_OK)
        return src;
    sqlite3_limit(p->db, SQLITE_LIMIT_LENGTH, (int)RPL_MAX_SQL_VALUE);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        src = sqlite3_create_function_v2(rpl__sq(ar)->db, names[i], -1,
                                         SQLITE_UTF8, p, checked_printf, NULL,
                                         NULL, NULL);
        if (src != SQLITE_OK)
            return src;
    }
    return SQLITE_OK;
}

static void
printf_end(struct rpl_archive *ar, struct sql_printf *p)
{
    static const char *const names[] = {"printf", "format"};

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        (void)sqlite3_create_function_v2(rpl__sq(ar)->db, names[i], -1,
                                         SQLITE_UTF8, NULL, NULL, NULL, NULL,
                                         NULL);
    for (size_t i = 0; i <= RPL_MAX_SQL_ARGS; i++)
        sqlite3_finalize(p->st[i]);
    sqlite3_close(p->db);
    memset(p, 0, sizeof(*p));
}

/* Sets the heap and time bounds of a typed statement (limits.h). */
static void
bounds_start(struct rpl__sq *q)
{
    struct timespec now;
    const sqlite3_int64 used = sqlite3_memory_used();

    q->heap_cap = used + (sqlite3_int64)RPL_MAX_SQL_HEAP;
    q->tick = RPL_SQL_TYPED_TICK;
    sqlite3_progress_handler(q->db, (int)q->tick, rpl__sq_on_progress, q);
    q->is_over_heap = false;
    q->is_over_time = false;
    q->end_s = 0;
    if (clock_gettime(CLOCK_MONOTONIC, &now) == 0) {
        q->end_s = (int64_t)now.tv_sec + RPL_MAX_SQL_SECONDS;
        q->end_ns = now.tv_nsec;
    }
}

static void
bounds_end(struct rpl__sq *q)
{
    q->heap_cap = 0;
    q->tick = RPL_SQL_STEP_TICK;
    sqlite3_progress_handler(q->db, (int)q->tick, rpl__sq_on_progress, q);
    q->end_s = 0;
    q->end_ns = 0;
}

enum rpl_status
rpl__sq_sql(struct rpl_archive *ar, const char *sql,
            bool (*each)(void *ud, size_t ncols, const char *const *names,
                         const char *const *values,
                         const enum rpl_sql_type *types),
            void *ud, struct rpl_error *err)
{
    struct rpl__sq *q = ar->db;
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    const char **names = NULL;
    const char **values = NULL;
    enum rpl_sql_type *types = NULL;
    char **hex = NULL;
    size_t ncols = 0;
    struct refusal refusal;
    struct sql_printf pf;
    enum rpl_status rc = RPL_OK;
    int src;

    memset(&refusal, 0, sizeof(refusal));
    src = printf_start(ar, &pf);
    if (src != SQLITE_OK) {
        rc = rpl__sq_fail(ar, err, src, "cannot prepare the statement");
        goto out;
    }
    bounds_start(q);
    sqlite3_set_authorizer(q->db, authorize_read, &refusal);
    src = sqlite3_prepare_v2(q->db, sql, -1, &st, &tail);
    if (src != SQLITE_OK && refusal.function[0]) {
        rc = rpl__err(err, RPL_E_ARG, 0,
                      "the function %s() is not allowed here "
                      "(camelog-archive(1) lists those that are)",
                      refusal.function);
        goto out;
    }
    if ((src & 0xff) == SQLITE_AUTH) {
        rc = rpl__err(err, RPL_E_ARG, 0,
                      "the archive is read-only here: only statements that "
                      "read are allowed");
        goto out;
    }
    if ((src & 0xff) == SQLITE_TOOBIG) {
        rc = rpl__err(err, RPL_E_LIMIT, 0,
                      "the statement is over %u bytes (RPL_MAX_SQL_TEXT)",
                      RPL_MAX_SQL_TEXT);
        goto out;
    }
    if (src != SQLITE_OK) {
        rc = rpl__err(err,
                      (src & 0xff) == SQLITE_NOMEM ? RPL_E_NOMEM : RPL_E_ARG, 0,
                      "%s", sqlite3_errmsg(q->db));
        goto out;
    }
    if (!st) {
        rc = rpl__err(err, RPL_E_ARG, 0, "no SQL statement");
        goto out;
    }
    if (tail && !is_blank_sql(tail)) {
        rc = rpl__err(err, RPL_E_ARG, 0, "one SQL statement at a time");
        goto out;
    }
    if (!sqlite3_stmt_readonly(st)) {
        rc = rpl__err(err, RPL_E_ARG, 0,
                      "the archive is read-only here: only statements that "
                      "read are allowed");
        goto out;
    }
    ncols = (size_t)sqlite3_column_count(st);
    names = rpl__calloc(ar->ctx, ncols + 1, sizeof(*names));
    values = rpl__calloc(ar->ctx, ncols + 1, sizeof(*values));
    types = rpl__calloc(ar->ctx, ncols + 1, sizeof(*types));
    hex = rpl__calloc(ar->ctx, ncols + 1, sizeof(*hex));
    if (!names || !values || !types || !hex) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < ncols; i++) {
        names[i] = sqlite3_column_name(st, (int)i);
        if (!names[i]) {
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            goto out;
        }
    }
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        bool go_on;

        for (size_t i = 0; i < ncols; i++) {
            const int c = (int)i;

            switch (sqlite3_column_type(st, c)) {
            case SQLITE_INTEGER:
                types[i] = RPL_SQL_INTEGER;
                break;
            case SQLITE_FLOAT:
                types[i] = RPL_SQL_REAL;
                break;
            case SQLITE_BLOB:
                types[i] = RPL_SQL_BLOB;
                break;
            case SQLITE_NULL:
                types[i] = RPL_SQL_NULL;
                break;
            default:
                types[i] = RPL_SQL_TEXT;
                break;
            }
            if (types[i] == RPL_SQL_BLOB) {
                const size_t n = (size_t)sqlite3_column_bytes(st, c);

                hex[i] = rpl__alloc(ar->ctx, 2 * n + 1);
                if (!hex[i]) {
                    rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                    break;
                }
                rpl__hex(hex[i], sqlite3_column_blob(st, c), n);
                values[i] = hex[i];
            } else if (types[i] == RPL_SQL_NULL) {
                values[i] = NULL;
            } else {
                values[i] = (const char *)sqlite3_column_text(st, c);
                if (!values[i]) {
                    rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                    break;
                }
            }
        }
        go_on = rc == RPL_OK && each(ud, ncols, names, values, types);
        for (size_t i = 0; i < ncols; i++) {
            rpl__free(ar->ctx, hex[i]);
            hex[i] = NULL;
        }
        if (!go_on)
            break;
    }
    if (rc == RPL_OK && src != SQLITE_ROW && src != SQLITE_DONE)
        rc = rpl__sq_fail(ar, err, src, "cannot run the statement");
out:
    sqlite3_finalize(st);
    sqlite3_set_authorizer(q->db, NULL, NULL);
    printf_end(ar, &pf);
    bounds_end(q);
    rpl__free(ar->ctx, hex);
    rpl__free(ar->ctx, types);
    rpl__free(ar->ctx, values);
    rpl__free(ar->ctx, names);
    return rc;
}
