/* nsys_sqlite.c - Nsight Systems SQLite exports (`nsys export --type
 * sqlite`), read with libsqlite3 (a required dependency).
 *
 * Read: kernels (CUPTI_ACTIVITY_KIND_KERNEL, names through StringIds),
 * memcpy (bytes, copy kind, source and destination memory kinds) and
 * memset, per device and stream; CUDA runtime and driver API calls and NVTX
 * ranges per thread, with thread and process names; correlation flows from
 * each API call to the GPU work it launched (same process and correlation
 * id). Every table and column is looked up before use: exports of
 * different nsys versions differ (kernel name columns, green contexts,
 * enum tables), and an export without a kernel table, or with no GPU work
 * at all, is a valid, small trace.
 *
 * Model: a group per process ("name", labels "pid N") holding a lane per
 * thread, then a group per GPU ("GPU N", labels the device name) holding a
 * lane per stream. Categories are Kineto's, which the GPU time breakdown
 * knows (src/analysis/classify.h): "kernel", "gpu_memcpy", "gpu_memset",
 * "cuda_runtime", "cuda_driver", and "nvtx" for NVTX ranges. Copies and
 * memsets are named as Kineto names them ("Memcpy HtoD (Pageable ->
 * Device)"). Timestamps are nsys's own nanoseconds.
 *
 * SQLite needs a file it can open by path: compressed or piped input is an
 * error that says so (tt_input_is_plain_file()).
 *
 * The schema, names and small tables are read through SQLite; the big
 * ones (kernels, copies, memsets, API calls, NVTX) through rows_open(),
 * which reads their pages itself where the file allows (sqlite_scan.h:
 * SQLite's virtual machine was more than half of the decode) and leaves
 * anything else to SQLite, with the same rows either way.
 */
#include "config.h"

#include "decode/argjson.h"
#include "decode/csv_common.h"
#include "decode/decode.h"
#include "decode/nsys_flows.h"
#include "decode/sqlite_scan.h"
#include "util/bigalloc.h"
#include "util/hash.h"
#include "util/num.h"
#include "util/u64map.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

typedef struct nsys {
    tt_trace           *tr;
    const tt_load_opts *opts;
    tt_input           *in;
    tt_error           *err;
    sqlite3            *db;
    tt_sqlfile          file;     /* the database's pages for scans (sqlite_scan.h) */
    tt_u64map           str;      /* StringIds id -> string id */
    uint32_t           *dense;    /* the same for ids below n_dense (dense_put()) */
    size_t              n_dense;
    bool                dense_ok;
    tt_u64map           lanes;    /* hashed lane key -> lane */
    tt_u64map           gpu_name; /* deviceId -> string id of the device name */
    tt_u64map           proc;     /* pid -> string id of the process name */
    tt_u64map           thread;   /* globalTid -> string id of the thread name */
    uint64_t            events;
    uint64_t            flows;    /* flow endpoints marked (flow_point()) */
    char                kinds[16][32];   /* memory kind labels by id */
    char                copies[16][40];  /* copy kind labels by id */
    uint32_t            keyset[3]; /* gpu_keyset(): kernels, copies, memsets */
    /* string ids asked for on every row, interned once: the category of
     * the last push() (cat_text: its static text) and the flows' "ac2g"
     * (interned at the first flow, where it always was: string ids stay) */
    const char         *cat_text;
    uint32_t            cat, ac2g;
    bool                placed;   /* sort_lanes() left every lane sorted */
} nsys;

#define NO_STR UINT32_MAX   /* s->dense: no such StringIds id */

static int oom(nsys *s)
{
    return tt_error_set(s->err, TT_ERR_NOMEM, "out of memory"), -1;
}

static int sql_fail(nsys *s, const char *what)
{
    return tt_error_set(s->err, TT_ERR_FORMAT, "%s: %s", what, sqlite3_errmsg(s->db)), -1;
}

static bool table_exists(nsys *s, const char *name)
{
    sqlite3_stmt *st;
    bool yes = false;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1",
                           -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    yes = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return yes;
}

static bool column_exists(nsys *s, const char *table, const char *col)
{
    char sql[200];
    sqlite3_stmt *st;
    bool yes = false;
    snprintf(sql, sizeof sql, "PRAGMA table_info(\"%s\")", table);
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    while (!yes && sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *n = sqlite3_column_text(st, 1);
        yes = n && strcmp((const char *)n, col) == 0;
    }
    sqlite3_finalize(st);
    return yes;
}

/* "col" when the table has it, else "NULL": old and new schemas differ. */
static const char *col_or_null(nsys *s, const char *table, const char *col)
{
    return column_exists(s, table, col) ? col : "NULL";
}

/* Column c of st's row as a scan gives it (sqlite_scan.h): the type
 * before any conversion, the integer sqlite3_column_int64() makes of it,
 * a text's bytes. */
static void sql_value(sqlite3_stmt *st, int c, tt_sqlv *x)
{
    x->type = sqlite3_column_type(st, c);
    x->s = NULL;
    x->n = 0;
    x->d = x->type == SQLITE_FLOAT ? sqlite3_column_double(st, c) : 0;
    if (x->type == SQLITE_TEXT) {
        x->s = (const char *)sqlite3_column_text(st, c);
        x->n = (size_t)sqlite3_column_bytes(st, c);
    }
    x->i = sqlite3_column_int64(st, c);
}

/* The string id of a text, or of a StringIds id; 0 for anything else. */
static uint32_t str_of_id(nsys *s, const tt_sqlv *x)
{
    uint32_t *v;
    uint64_t id;
    if (x->type == SQLITE_TEXT)
        return tt_trace_intern(s->tr, x->s, x->n);
    if (x->type != SQLITE_INTEGER)
        return 0;
    id = (uint64_t)x->i;
    if (id < s->n_dense)
        return s->dense[id] == NO_STR ? 0 : s->dense[id];
    v = tt_u64map_get(&s->str, id);
    return v ? *v : 0;
}

/* StringIds id -> string id in s->dense too while the ids stay dense (as
 * nsys numbers them, from 0 or 1): a row's name is then an array read,
 * not a hash lookup. An id that leaves the array mostly empty drops it
 * (the map has them all), and so does a failed allocation. rows: the
 * rows read so far. */
static void dense_put(nsys *s, uint64_t id, uint32_t str, uint64_t rows)
{
    if (!s->dense_ok)
        return;
    if (id >= s->n_dense) {
        size_t n = s->n_dense ? s->n_dense : 1024;
        uint32_t *d = NULL;
        if (id <= 2 * rows + 4096)
            while (n <= id)
                n *= 2;
        if (id > 2 * rows + 4096 || !(d = realloc(s->dense, n * sizeof *d))) {
            free(s->dense);   /* sparse (or no memory for it): the map */
            s->dense = NULL;
            s->n_dense = 0;
            s->dense_ok = false;
            return;
        }
        for (size_t i = s->n_dense; i < n; i++)
            d[i] = NO_STR;
        s->dense = d;
        s->n_dense = n;
    }
    s->dense[id] = str;
}

static const char *text(sqlite3_stmt *st, int c)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    return t ? (const char *)t : "";
}

/* The rows of one SELECT of a table's columns, read by a scan of the file
 * (sqlite_scan.h) where it can, else by SQLite: the same values either
 * way, in the same order (a full scan's, rowid order). */
typedef struct rows {
    sqlite3_stmt *st;     /* NULL: the scan reads (or the query ended) */
    tt_sqlscan    sc;
    bool          scan;
    const char   *table;
    int           ncol;
    tt_sqlv       v[TT_SQLSCAN_MAX_COLS];   /* the current row's values */
} rowsrc;

/* Whether a declared type may give a column REAL affinity (SQLite's
 * rule: it names REAL, FLOA or DOUB, and no INT, CHAR, CLOB, TEXT or BLOB
 * before them; any of the three is enough here). SQLite stores a whole
 * number of such a column as an integer and returns it as a REAL, which
 * a scan does not. */
static bool real_affinity(const char *type)
{
    for (const char *t = type; *t; t++)
        if (strncasecmp(t, "REAL", 4) == 0 || strncasecmp(t, "FLOA", 4) == 0 ||
            strncasecmp(t, "DOUB", 4) == 0)
            return true;
    return false;
}

/* The record field of each of the ncol columns col[] of table ("NULL":
 * -1) and the table's root page, where a scan reads them as SQLite's
 * query would: a rowid table, no index on it (a covering index could be
 * what SQLite scans, in its own order; an index's tbl_name may differ in
 * case, as SQLite's names do), no hidden or generated column (the fields
 * follow the declared columns), no key column asked for (an INTEGER
 * PRIMARY KEY is the rowid, not a field), none of REAL affinity. */
static bool scan_fields(nsys *s, const char *table, const char *const *col, int ncol,
                        int *field, uint32_t *root)
{
    sqlite3_stmt *st;
    char sql[200];
    bool ok;
    int64_t pg = 0;
    if (!s->file.map || ncol > TT_SQLSCAN_MAX_COLS)
        return false;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT rootpage FROM sqlite_master WHERE type='table' AND name=?1 "
                           "AND NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type='index' "
                           "AND tbl_name=?1 COLLATE NOCASE)",
                           -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER)
        pg = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (pg < 2 || pg > UINT32_MAX)
        return false;
    *root = (uint32_t)pg;
    for (int c = 0; c < ncol; c++)
        field[c] = strcmp(col[c], "NULL") == 0 ? -1 : -2;
    snprintf(sql, sizeof sql, "PRAGMA table_xinfo(\"%s\")", table);
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    ok = true;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const char *name = text(st, 1), *type = text(st, 2);
        int64_t cid = sqlite3_column_int64(st, 0);
        bool pk = sqlite3_column_int64(st, 5) != 0;
        ok = sqlite3_column_int64(st, 6) == 0 && cid >= 0 && cid < INT_MAX;
        for (int c = 0; ok && c < ncol; c++)
            if (field[c] != -1 && strcmp(col[c], name) == 0) {
                field[c] = (int)cid;
                ok = !pk && !real_affinity(type);
            }
    }
    sqlite3_finalize(st);
    for (int c = 0; ok && c < ncol; c++)
        ok = field[c] != -2;
    return ok;
}

/* Open the rows of columns col[0..ncol) of table (a name, or "NULL"),
 * where, if not NULL, is the query's condition: a scan reads every row
 * and the caller tests it again. text_ok: bit c, column c may hold text
 * (any other text or a REAL leaves the table to SQLite). 0 or -1 (the
 * error set). */
static int rows_open(nsys *s, rowsrc *r, const char *table, const char *const *col, int ncol,
                     uint32_t text_ok, const char *where)
{
    char sql[1024];
    size_t len;
    int field[TT_SQLSCAN_MAX_COLS];
    uint32_t root;
    r->st = NULL;
    r->scan = false;
    r->table = table;
    r->ncol = ncol;
    if (scan_fields(s, table, col, ncol, field, &root) &&
        tt_sqlscan_open(&r->sc, &s->file, root, ncol, field, text_ok) == 0) {
        r->scan = true;
        return 0;
    }
    len = (size_t)snprintf(sql, sizeof sql, "SELECT");
    for (int c = 0; c < ncol && len < sizeof sql; c++)
        len += (size_t)snprintf(sql + len, sizeof sql - len, "%s %s", c ? "," : "", col[c]);
    if (len < sizeof sql)
        len += (size_t)snprintf(sql + len, sizeof sql - len, " FROM %s%s%s", table,
                                where ? " WHERE " : "", where ? where : "");
    if (len >= sizeof sql || sqlite3_prepare_v2(s->db, sql, -1, &r->st, NULL) != SQLITE_OK)
        return sql_fail(s, table);
    return 0;
}

/* The next row in r->v: 1, 0 after the last, -1 on an error (set; the
 * query is then finalized before its message is read, as it always was). */
static int rows_next(nsys *s, rowsrc *r)
{
    int rc;
    if (r->scan) {
        if ((rc = tt_sqlscan_next(&r->sc, r->v)) < 0)
            tt_error_set(s->err, TT_ERR_FORMAT, "%s: the database changed while it was read",
                         r->table);
        return rc;
    }
    if (!r->st)
        return 0;
    if ((rc = sqlite3_step(r->st)) == SQLITE_ROW) {
        for (int c = 0; c < r->ncol; c++)
            sql_value(r->st, c, &r->v[c]);
        return 1;
    }
    sqlite3_finalize(r->st);
    r->st = NULL;
    return rc == SQLITE_DONE ? 0 : sql_fail(s, r->table);
}

static void rows_close(rowsrc *r)
{
    if (r->scan)
        tt_sqlscan_close(&r->sc);
    r->scan = false;
    sqlite3_finalize(r->st);
    r->st = NULL;
}

/* A read transaction on the database, held until the connection closes:
 * SQLite's shared lock stops any writer from committing while the scans
 * read the file's pages (a deferred BEGIN takes it at its first read).
 * false: none (a writer holds the file), and no scan. */
static bool read_lock(nsys *s)
{
    if (sqlite3_exec(s->db, "BEGIN; SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) ==
        SQLITE_OK)
        return true;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

static int load_strings(nsys *s)
{
    sqlite3_stmt *st;
    int rc;
    uint64_t rows = 0;
    if (!table_exists(s, "StringIds"))
        return 0;
    s->dense_ok = true;
    if (sqlite3_prepare_v2(s->db, "SELECT id, value FROM StringIds", -1, &st, NULL) != SQLITE_OK)
        return sql_fail(s, "StringIds");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *v = sqlite3_column_text(st, 1);
        uint32_t id = tt_trace_intern(s->tr, v ? (const char *)v : "",
                                      (size_t)sqlite3_column_bytes(st, 1));
        uint64_t key = (uint64_t)sqlite3_column_int64(st, 0);
        if (id == TT_STR_ERROR || tt_u64map_put(&s->str, key, id)) {
            sqlite3_finalize(st);
            return oom(s);
        }
        dense_put(s, key, id, ++rows);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : sql_fail(s, "StringIds");
}

/* Memory and copy kind labels: the export's enum tables when present, else
 * the values nsys has always used. */
static void load_enums(nsys *s)
{
    static const char *const mem[] = {"Pageable", "Pinned", "Device", "Array", "Managed",
                                      "Device Static", "Managed Static", "Unknown"};
    static const char *const cpy[] = {"Unknown", "Host-to-Device", "Device-to-Host",
                                      "Host-to-Array", "Array-to-Host", "Array-to-Array",
                                      "Array-to-Device", "Device-to-Array", "Device-to-Device",
                                      "Host-to-Host", "Peer-to-Peer"};
    sqlite3_stmt *st;
    memset(s->kinds, 0, sizeof s->kinds);
    memset(s->copies, 0, sizeof s->copies);
    for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++)
        snprintf(s->kinds[i], sizeof s->kinds[i], "%s", mem[i]);
    for (size_t i = 0; i < sizeof cpy / sizeof cpy[0]; i++)
        snprintf(s->copies[i], sizeof s->copies[i], "%s", cpy[i]);
    if (table_exists(s, "ENUM_CUDA_MEM_KIND") &&
        sqlite3_prepare_v2(s->db, "SELECT id, label FROM ENUM_CUDA_MEM_KIND", -1, &st, NULL) ==
            SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            int64_t id = sqlite3_column_int64(st, 0);
            if (id >= 0 && id < 16)
                snprintf(s->kinds[id], sizeof s->kinds[id], "%s", text(st, 1));
        }
        sqlite3_finalize(st);
    }
    if (table_exists(s, "ENUM_CUDA_MEMCPY_OPER") &&
        sqlite3_prepare_v2(s->db, "SELECT id, label FROM ENUM_CUDA_MEMCPY_OPER", -1, &st, NULL) ==
            SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            int64_t id = sqlite3_column_int64(st, 0);
            if (id >= 0 && id < 16)
                snprintf(s->copies[id], sizeof s->copies[id], "%s", text(st, 1));
        }
        sqlite3_finalize(st);
    }
}

static const char *kind_label(nsys *s, const tt_sqlv *x)
{
    int64_t v;
    if (x->type != SQLITE_INTEGER)
        return NULL;
    v = x->i;
    return v >= 0 && v < 16 && s->kinds[v][0] ? s->kinds[v] : NULL;
}

/* Names of GPUs, processes and threads; export metadata. */
static int load_names(nsys *s)
{
    sqlite3_stmt *st;
    cJSON *gpus = NULL;
    if (table_exists(s, "TARGET_INFO_GPU") &&
        sqlite3_prepare_v2(s->db, "SELECT id, name FROM TARGET_INFO_GPU", -1, &st, NULL) ==
            SQLITE_OK) {
        gpus = cJSON_CreateArray();
        while (sqlite3_step(st) == SQLITE_ROW) {
            uint32_t nm = tt_trace_intern_cstr(s->tr, text(st, 1));
            cJSON *g = cJSON_CreateObject();
            if (nm == TT_STR_ERROR || !g ||
                tt_u64map_put(&s->gpu_name, (uint64_t)sqlite3_column_int64(st, 0), nm)) {
                cJSON_Delete(g);
                cJSON_Delete(gpus);
                sqlite3_finalize(st);
                return oom(s);
            }
            cJSON_AddNumberToObject(g, "id", (double)sqlite3_column_int64(st, 0));
            cJSON_AddStringToObject(g, "name", text(st, 1));
            cJSON_AddItemToArray(gpus, g);
        }
        sqlite3_finalize(st);
        if (gpus && cJSON_GetArraySize(gpus) > 0)
            cJSON_AddItemToObject(s->tr->meta, "gpus", gpus);
        else
            cJSON_Delete(gpus);
    }
    if (table_exists(s, "PROCESSES") &&
        sqlite3_prepare_v2(s->db, "SELECT pid, name FROM PROCESSES", -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *n = text(st, 1), *slash = strrchr(n, '/');
            uint32_t nm = tt_trace_intern_cstr(s->tr, slash && slash[1] ? slash + 1 : n);
            if (nm == TT_STR_ERROR ||
                tt_u64map_put(&s->proc, (uint64_t)sqlite3_column_int64(st, 0), nm)) {
                sqlite3_finalize(st);
                return oom(s);
            }
        }
        sqlite3_finalize(st);
    }
    if (table_exists(s, "ThreadNames") &&
        sqlite3_prepare_v2(s->db, "SELECT globalTid, nameId FROM ThreadNames", -1, &st, NULL) ==
            SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            tt_sqlv id;
            uint32_t nm;
            sql_value(st, 1, &id);
            nm = str_of_id(s, &id);
            if (nm && tt_u64map_put(&s->thread, (uint64_t)sqlite3_column_int64(st, 0), nm)) {
                sqlite3_finalize(st);
                return oom(s);
            }
        }
        sqlite3_finalize(st);
    }
    {
        const char *tab = table_exists(s, "META_DATA_EXPORT")   ? "META_DATA_EXPORT"
                          : table_exists(s, "EXPORT_META_DATA") ? "EXPORT_META_DATA"
                                                                : NULL;
        char sql[128];
        if (tab) {
            snprintf(sql, sizeof sql, "SELECT name, value FROM %s WHERE name IN "
                     "('EXPORT_PRODUCT_VERSION','EXPORT_SCHEMA_VERSION')", tab);
            if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK) {
                while (sqlite3_step(st) == SQLITE_ROW)
                    cJSON_AddStringToObject(s->tr->meta,
                                            strcmp(text(st, 0), "EXPORT_PRODUCT_VERSION") == 0
                                                ? "nsys_version"
                                                : "nsys_export_schema",
                                            text(st, 1));
                sqlite3_finalize(st);
            }
        }
    }
    if (table_exists(s, "TARGET_INFO_SESSION_START_TIME") &&
        sqlite3_prepare_v2(s->db, "SELECT utcTime FROM TARGET_INFO_SESSION_START_TIME", -1, &st,
                           NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT)
            cJSON_AddStringToObject(s->tr->meta, "session_start_utc", text(st, 0));
        sqlite3_finalize(st);
    }
    return 0;
}

/* Lanes: "gpu"/device/stream or "proc"/pid/tid, created with names. */
static uint32_t gpu_lane(nsys *s, int64_t dev, int64_t stream)
{
    uint64_t key = tt_hash_mix(0x6770ULL ^ tt_hash_mix((uint64_t)dev) ^ ((uint64_t)stream << 20));
    uint32_t *hit = tt_u64map_get(&s->lanes, key), g, l, *nm;
    char buf[64];
    if (hit)
        return *hit;
    snprintf(buf, sizeof buf, "gpu:%lld", (long long)dev);
    g = tt_trace_group(s->tr, tt_trace_intern_cstr(s->tr, buf));
    if (g == TT_NO_LANE)
        return TT_NO_LANE;
    snprintf(buf, sizeof buf, "GPU %lld", (long long)dev);
    s->tr->groups[g].name = tt_trace_intern_cstr(s->tr, buf);
    nm = tt_u64map_get(&s->gpu_name, (uint64_t)dev);
    s->tr->groups[g].labels = nm ? *nm : 0;
    /* GPUs after the processes (pids are 24 bits); the clamp keeps a
     * forged device id from overflowing */
    s->tr->groups[g].sort_index =
        ((int64_t)1 << 40) + (dev < 0 ? 0 : dev > INT32_MAX ? INT32_MAX : dev);
    s->tr->groups[g].has_sort = true;
    snprintf(buf, sizeof buf, "stream:%lld", (long long)stream);
    l = tt_trace_lane(s->tr, g, tt_trace_intern_cstr(s->tr, buf), TT_LANE_THREAD);
    if (l == TT_NO_LANE)
        return TT_NO_LANE;
    snprintf(buf, sizeof buf, "Stream %lld", (long long)stream);
    s->tr->lanes[l].name = tt_trace_intern_cstr(s->tr, buf);
    if (s->tr->groups[g].name == TT_STR_ERROR || s->tr->lanes[l].name == TT_STR_ERROR ||
        tt_u64map_put(&s->lanes, key, l))
        return TT_NO_LANE;
    return l;
}

static uint32_t thread_lane(nsys *s, int64_t gtid, bool async)
{
    int64_t pid = (gtid >> 24) & 0xffffff, tid = gtid & 0xffffff;
    uint64_t key = tt_hash_mix(0x7468ULL ^ tt_hash_mix((uint64_t)gtid) ^ (async ? 1 : 0));
    uint32_t *hit = tt_u64map_get(&s->lanes, key), g, l, *nm;
    char buf[64];
    if (hit)
        return *hit;
    snprintf(buf, sizeof buf, "pid:%lld", (long long)pid);
    g = tt_trace_group(s->tr, tt_trace_intern_cstr(s->tr, buf));
    if (g == TT_NO_LANE)
        return TT_NO_LANE;
    nm = tt_u64map_get(&s->proc, (uint64_t)pid);
    snprintf(buf, sizeof buf, "pid %lld", (long long)pid);
    if (nm) {
        s->tr->groups[g].name = *nm;
        s->tr->groups[g].labels = tt_trace_intern_cstr(s->tr, buf);
    } else {
        s->tr->groups[g].name = tt_trace_intern_cstr(s->tr, buf);
    }
    s->tr->groups[g].sort_index = pid;
    s->tr->groups[g].has_sort = true;
    if (async) {
        l = tt_trace_lane(s->tr, g, tt_trace_intern_cstr(s->tr, "NVTX"), TT_LANE_ASYNC);
        if (l == TT_NO_LANE)
            return TT_NO_LANE;
        s->tr->lanes[l].name = tt_trace_intern_cstr(s->tr, "NVTX");
    } else {
        snprintf(buf, sizeof buf, "tid:%lld", (long long)tid);
        l = tt_trace_lane(s->tr, g, tt_trace_intern_cstr(s->tr, buf), TT_LANE_THREAD);
        if (l == TT_NO_LANE)
            return TT_NO_LANE;
        nm = tt_u64map_get(&s->thread, (uint64_t)gtid);
        snprintf(buf, sizeof buf, "tid %lld", (long long)tid);
        s->tr->lanes[l].name = nm ? *nm : tt_trace_intern_cstr(s->tr, buf);
        /* the main thread first, like the Nsight Systems timeline */
        s->tr->lanes[l].sort_index = tid == pid ? 0 : 1;
        s->tr->lanes[l].has_sort = true;
    }
    if (s->tr->groups[g].name == TT_STR_ERROR || s->tr->lanes[l].name == TT_STR_ERROR ||
        tt_u64map_put(&s->lanes, key, l))
        return TT_NO_LANE;
    return l;
}

/* push() skipped a row whose times lie beyond TT_TIME_LIMIT (recorded as a
 * problem; a damaged or forged export, nsys never writes them). */
#define SKIPPED (-2)

/* Room for one more event on lane l. A big lane grows here, not in the
 * model, onto transparent huge pages (util/bigalloc.h): its events are
 * written once into fresh memory, and the 4 KiB pages' first-touch faults
 * were a tenth of the decode. 0 or -1 (OOM). */
static int lane_room(tt_lane *l)
{
    tt_event *ev;
    size_t cap;
    if (l->n < l->cap || l->cap * sizeof *ev < TT_BIGALLOC_FROM / 2 || l->cap >= UINT32_MAX / 2)
        return 0;   /* room, or the model's growth (and its limit) */
    cap = l->cap * 2;
    /* a big lane's pages move to the new block (no copy, no new faults) */
    if (!(ev = tt_bigrealloc(l->ev, l->n * sizeof *ev, cap * sizeof *ev)))
        return -1;
    l->ev = ev;
    l->cap = cap;
    return 0;
}

/* The event's index on lane, SKIPPED, or -1 on error (out of memory). */
static int64_t push(nsys *s, uint32_t lane, int64_t start, int64_t end, uint32_t name,
                    const char *cat, uint8_t kind)
{
    uint32_t c;
    int64_t idx;
    tt_event *e;
    if (cat != s->cat_text) {
        s->cat = tt_trace_intern_cstr(s->tr, cat);
        s->cat_text = s->cat == TT_STR_ERROR ? NULL : cat;
    }
    c = s->cat;
    if (lane == TT_NO_LANE || c == TT_STR_ERROR || name == TT_STR_ERROR)
        return oom(s), -1;
    if (!tt_time_ok(start) || !tt_time_ok(end) || (end > start && end - start > TT_TIME_LIMIT)) {
        tt_trace_problem(s->tr, TT_PROB_BAD_EVENT, "%s row with a time out of range: skipped",
                         cat);
        return SKIPPED;
    }
    if (end < start) {
        tt_trace_problem(s->tr, TT_PROB_NEGATIVE_DURATION, "'%s' ends %lld ns before it starts",
                         tt_str(s->tr, name), (long long)(start - end));
        end = start;
    }
    idx = lane_room(&s->tr->lanes[lane]) ? -1 : tt_trace_push_event(s->tr, lane);
    if (idx < 0)
        return oom(s), -1;
    e = &s->tr->lanes[lane].ev[idx];
    e->start = start;
    e->dur = end - start;
    e->name = name;
    e->cat = c;
    e->kind = kind;
    s->events++;
    return idx;
}

/* A correlation flow endpoint at exactly this event: marked on it, linked
 * once the lanes are sorted (nsys_flows.h). */
static int flow_point(nsys *s, uint64_t pid, int64_t corr, tt_event *e, tt_flow_phase phase)
{
    if (!s->ac2g && (s->ac2g = tt_trace_intern_cstr(s->tr, "ac2g")) == TT_STR_ERROR)
        return oom(s);
    tt_nsys_flow_mark(e, pid, corr, s->flows++, phase == TT_FLOW_START);
    return 0;
}

/* The argument keys of kernels, copies and memsets, in the order their
 * objects have always been written (as cJSON printed them, which the text
 * read back must stay). A table's rows store their values only, under
 * one key set (model/args.h): no key text per row, a fifth of the bytes
 * to compress, no JSON written while reading. */
#define GPU_KEYS 12
static const char *const gpu_keys[3][GPU_KEYS] = {
    {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
     "staticSharedMemory", "dynamicSharedMemory", "deviceId", "streamId", "correlationId"},
    {"copyKind", "srcKind", "dstKind", "bytes", "deviceId", "streamId", "correlationId"},
    {"value", "bytes", "deviceId", "streamId", "correlationId"},
};

/* The key set of table t (0 kernels, 1 copies, 2 memsets), registered at
 * its first use; 0 when out of memory. */
static uint32_t gpu_keyset(nsys *s, int t)
{
    char text[GPU_KEYS][40];
    const char *keys[GPU_KEYS];
    size_t len[GPU_KEYS];
    uint32_t n = 0;
    if (s->keyset[t])
        return s->keyset[t];
    for (; n < GPU_KEYS && gpu_keys[t][n]; n++) {
        len[n] = (size_t)snprintf(text[n], sizeof text[n], "\"%s\":", gpu_keys[t][n]);
        keys[n] = text[n];
    }
    return s->keyset[t] = tt_args_keyset(s->tr->args, keys, len, n);
}

/* Whether x is an integer, and then its value in *v. */
static bool col_int(const tt_sqlv *x, int64_t *v)
{
    if (x->type != SQLITE_INTEGER)
        return false;
    *v = x->i;
    return true;
}

/* x as cJSON printed it as a number (tt_argjson_number()), in buf (32
 * bytes) and *v: an int's digits, anything bigger as cJSON prints the
 * double it becomes. */
static void arg_number(tt_args_val *v, char *buf, int64_t x)
{
    if (x >= INT_MIN && x <= INT_MAX) {
        v->s = buf;
        v->n = tt_fmt_i64(buf, x);
    } else {
        /* the decimal text reads as the double nearest x, as (double)x is */
        char t[24];
        int tl = snprintf(t, sizeof t, "%lld", (long long)x);
        v->s = buf;
        v->n = tt_argjson_print_number(buf, t, (size_t)tl);
    }
    v->kind = TT_ARGV_SCALAR;   /* digits, sign, '.', 'e' */
}

/* The values of a table's numeric arguments as last written, by key
 * index: most columns repeat row after row (launch shapes, device,
 * stream), and their text is then the last row's, still in num[k]. */
typedef struct num_cache {
    char        num[GPU_KEYS][32];
    int64_t     last[GPU_KEYS];
    const char *text[GPU_KEYS];   /* in num[k] */
    size_t      len[GPU_KEYS];
    bool        have[GPU_KEYS];
} num_cache;

/* arg_number_at() for a value not in the cache: printed, then kept. */
static void arg_number_new(tt_args_val *v, num_cache *c, int k, int64_t x)
{
    arg_number(v, c->num[k], x);
    c->last[k] = x;
    c->text[k] = v->s;
    c->len[k] = v->n;
    c->have[k] = true;
}

/* arg_number() of x as the value of key k, through the cache: inlined,
 * a hit is a compare and three stores (a call per value was a tenth of
 * what the cache saved). */
static inline __attribute__((always_inline)) void arg_number_at(tt_args_val *v, num_cache *c,
                                                                int k, int64_t x)
{
    if (!c->have[k] || c->last[k] != x) {
        arg_number_new(v, c, k, x);
        return;
    }
    v->s = c->text[k];
    v->n = c->len[k];
    v->kind = TT_ARGV_SCALAR;
}

/* str quoted with cJSON's escapes (tt_argjson_string()), into buf
 * (TT_JSON_STRING_MAX(strlen(str)) bytes) and *v: a TT_ARGV_SCALAR, which
 * leaves its block's key filter able to pass it over, unless an escape
 * was written (a backslash the filter must know of). */
static void arg_string(tt_args_val *v, char *buf, const char *str)
{
    size_t n = strlen(str);
    v->s = buf;
    v->n = (size_t)(tt_argjson_quote(buf, str, n) - buf);
    v->kind = v->n == n + 2 ? TT_ARGV_SCALAR : TT_ARGV_JSON;
}

static void progress(nsys *s)
{
    if (s->opts->progress)
        s->opts->progress(s->opts->progress_ctx, tt_input_file_pos(s->in),
                          tt_input_file_size(s->in), tt_input_file_size(s->in), s->events);
}

/* Kernels, copies and memsets: one query per table, columns as present. */
static int load_gpu(nsys *s, const char *table)
{
    const char *T = table;
    bool kern = strcmp(table, "CUPTI_ACTIVITY_KIND_KERNEL") == 0;
    bool copy = strcmp(table, "CUPTI_ACTIVITY_KIND_MEMCPY") == 0;
    static const char *const kern_cols[] = {"gridX", "gridY", "gridZ", "blockX", "blockY",
                                            "blockZ", "registersPerThread",
                                            "staticSharedMemory", "dynamicSharedMemory"};
    static const char *const copy_cols[] = {"bytes", "copyKind", "srcKind", "dstKind"};
    static const char *const set_cols[] = {"bytes", "memKind", "value"};
    const char *col[16];
    int ncol = 0, rc;
    rowsrc r;
    const tt_sqlv *v;
    uint64_t n = 0;
    uint32_t keyset;
    int k_dev = 0;   /* the index of "deviceId" in the table's keys */
    tt_args_val val[GPU_KEYS];
    num_cache nc;
    char str[3][TT_JSON_STRING_MAX(sizeof s->copies[0])];
    /* the last row's labels as quoted (slot j: str[j]) and its copy or
     * memset name: labels are a few, rows mostly repeat the last one's */
    const char *quoted[3] = {NULL, NULL, NULL}, *named[3] = {NULL, NULL, NULL};
    tt_args_val qval[3];
    uint32_t last_name = TT_STR_ERROR;
    /* the last row's stream and its lane: rows come in runs of a stream */
    int64_t last_dev = 0, last_strm = 0;
    uint32_t last_lane = TT_NO_LANE;
    if (!table_exists(s, T))
        return 0;
    if (!column_exists(s, T, "start") || !column_exists(s, T, "end")) {
        tt_trace_problem(s->tr, TT_PROB_BAD_EVENT, "table %s has no start/end columns: skipped", T);
        return 0;
    }
    col[ncol++] = "start";
    col[ncol++] = "end";
    col[ncol++] = col_or_null(s, T, "deviceId");
    col[ncol++] = col_or_null(s, T, "streamId");
    col[ncol++] = col_or_null(s, T, "correlationId");
    col[ncol++] = col_or_null(s, T, "globalPid");
    if (kern) {
        col[ncol++] = column_exists(s, T, "demangledName") ? "demangledName"
                      : column_exists(s, T, "shortName")   ? "shortName"
                                                           : col_or_null(s, T, "name");
        for (size_t k = 0; k < sizeof kern_cols / sizeof kern_cols[0]; k++)
            col[ncol++] = col_or_null(s, T, kern_cols[k]);
    } else if (copy) {
        for (size_t k = 0; k < sizeof copy_cols / sizeof copy_cols[0]; k++)
            col[ncol++] = col_or_null(s, T, copy_cols[k]);
    } else {
        for (size_t k = 0; k < sizeof set_cols / sizeof set_cols[0]; k++)
            col[ncol++] = col_or_null(s, T, set_cols[k]);
    }
    /* a kernel's name may be the text itself (old exports) */
    if (rows_open(s, &r, T, col, ncol, kern ? 1u << 6 : 0, NULL))
        return -1;
    v = r.v;
    if (!(keyset = gpu_keyset(s, kern ? 0 : copy ? 1 : 2))) {
        rows_close(&r);
        return oom(s);
    }
    memset(nc.have, 0, sizeof nc.have);
    while ((rc = rows_next(s, &r)) > 0) {
        int64_t start = v[0].i, end = v[1].i;
        int64_t dev = v[2].i, strm = v[3].i;
        int64_t corr = v[4].i, x;
        uint64_t pid = ((uint64_t)v[5].i >> 24) & 0xffffff;
        uint32_t lane, name;
        int64_t idx;
        char buf[200];
        tt_event *e;
        if (last_lane == TT_NO_LANE || dev != last_dev || strm != last_strm) {
            last_lane = gpu_lane(s, dev, strm);
            last_dev = dev;
            last_strm = strm;
        }
        lane = last_lane;
        /* the values of the table's keys (gpu_keys), none present yet */
        memset(val, 0, sizeof val);
        if (kern) {
            name = str_of_id(s, &v[6]);
            if (!name)
                name = tt_trace_intern_cstr(s->tr, "(unnamed kernel)");
            idx = push(s, lane, start, end, name, "kernel", TT_EV_SLICE);
            for (int k = 0; k < 9; k++)
                if (col_int(&v[7 + k], &x))
                    arg_number_at(&val[k], &nc, k, x);
            k_dev = 9;
        } else if (copy) {
            int64_t ck = v[7].i;
            const char *src = kind_label(s, &v[8]), *dst = kind_label(s, &v[9]);
            const char *kind = ck >= 0 && ck < 16 && s->copies[ck][0] ? s->copies[ck] : "?";
            const char *lab[3] = {kind, src, dst};
            if (last_name == TT_STR_ERROR || kind != named[0] || src != named[1] ||
                dst != named[2]) {
                tt_nsys_memcpy_name(buf, sizeof buf, kind, src, dst);
                last_name = tt_trace_intern_cstr(s->tr, buf);
                named[0] = kind;
                named[1] = src;
                named[2] = dst;
            }
            name = last_name;
            idx = push(s, lane, start, end, name, "gpu_memcpy", TT_EV_SLICE);
            for (int j = 0; j < 3; j++) {
                if (!lab[j])
                    continue;
                if (lab[j] != quoted[j]) {
                    arg_string(&qval[j], str[j], lab[j]);
                    quoted[j] = lab[j];
                }
                val[j] = qval[j];
            }
            k_dev = 4;
        } else {
            const char *mem = kind_label(s, &v[7]);
            if (last_name == TT_STR_ERROR || mem != named[0]) {
                tt_nsys_memset_name(buf, sizeof buf, mem);
                last_name = tt_trace_intern_cstr(s->tr, buf);
                named[0] = mem;
            }
            name = last_name;
            idx = push(s, lane, start, end, name, "gpu_memset", TT_EV_SLICE);
            if (col_int(&v[8], &x))
                arg_number_at(&val[0], &nc, 0, x);
            k_dev = 2;
        }
        if (idx == SKIPPED)
            continue;
        if (idx < 0) {
            rows_close(&r);
            return -1;
        }
        e = &s->tr->lanes[lane].ev[idx];
        if (!kern && col_int(&v[6], &x)) {
            e->bytes = x;
            arg_number_at(&val[k_dev - 1], &nc, k_dev - 1, e->bytes);
        }
        arg_number_at(&val[k_dev], &nc, k_dev, dev);
        arg_number_at(&val[k_dev + 1], &nc, k_dev + 1, strm);
        if (corr > 0 && corr <= UINT32_MAX) {
            e->corr = (uint32_t)corr;
            arg_number(&val[k_dev + 2], nc.num[k_dev + 2], corr);
            if (flow_point(s, pid, corr, e, TT_FLOW_END)) {
                rows_close(&r);
                return -1;
            }
        }
        /* deviceId and streamId are always there: 0 is out of memory */
        if (!(e->args = tt_args_add_row(s->tr->args, keyset, val))) {
            rows_close(&r);
            return oom(s);
        }
        if (++n % 65536 == 0)
            progress(s);
    }
    rows_close(&r);
    if (rc < 0)
        return -1;
    if (n && tt_trace_tally_phase(s->tr, kern ? "kernel" : copy ? "gpu_memcpy" : "gpu_memset",
                                  strlen(kern ? "kernel" : copy ? "gpu_memcpy" : "gpu_memset"), n))
        return oom(s);
    return 0;
}

/* CUDA runtime or driver API calls on host threads. */
static int load_api(nsys *s, const char *table, const char *cat)
{
    const char *col[5];
    rowsrc r;
    const tt_sqlv *v = r.v;
    int rc;
    uint64_t n = 0;
    /* the last row's thread and its lane: a thread makes calls in runs */
    int64_t last_gtid = 0;
    uint32_t last_lane = TT_NO_LANE;
    if (!table_exists(s, table) || !column_exists(s, table, "globalTid"))
        return 0;
    col[0] = "start";
    col[1] = "end";
    col[2] = "globalTid";
    col[3] = col_or_null(s, table, "correlationId");
    col[4] = col_or_null(s, table, "nameId");
    if (rows_open(s, &r, table, col, 5, 1u << 4, NULL))
        return -1;
    while ((rc = rows_next(s, &r)) > 0) {
        int64_t gtid = v[2].i, corr = v[3].i, idx;
        uint32_t lane, name;
        tt_event *e;
        if (last_lane == TT_NO_LANE || gtid != last_gtid) {
            last_lane = thread_lane(s, gtid, false);
            last_gtid = gtid;
        }
        lane = last_lane;
        name = str_of_id(s, &v[4]);   /* after the lane, as the ids always came */
        if (!name)
            name = tt_trace_intern_cstr(s->tr, "(unnamed call)");
        idx = push(s, lane, v[0].i, v[1].i, name, cat, TT_EV_SLICE);
        if (idx == SKIPPED)
            continue;
        if (idx < 0) {
            rows_close(&r);
            return -1;
        }
        e = &s->tr->lanes[lane].ev[idx];
        if (corr > 0 && corr <= UINT32_MAX) {
            e->corr = (uint32_t)corr;
            if (flow_point(s, ((uint64_t)gtid >> 24) & 0xffffff, corr, e, TT_FLOW_START)) {
                rows_close(&r);
                return -1;
            }
        }
        if (++n % 65536 == 0)
            progress(s);
    }
    rows_close(&r);
    if (rc < 0)
        return -1;
    if (n && tt_trace_tally_phase(s->tr, cat, strlen(cat), n))
        return oom(s);
    return 0;
}

/* A rank a thread name gives: "MPI Rank N" (nvtxNameOsThread in MPI
 * wrappers) or "rank N"/"Rank N" as launch scripts name their threads;
 * the whole name, so that "rank 2 loader" is no rank. */
static bool thread_rank(const char *name, int *rank)
{
    int n = -1;
    if (sscanf(name, "MPI Rank %d", rank) == 1)
        return *rank >= 0;
    if (strncasecmp(name, "rank ", 5) != 0 || !isdigit((unsigned char)name[5]) ||
        sscanf(name + 5, "%d%n", rank, &n) != 1 || n < 0 || name[5 + n] != '\0')
        return false;
    return *rank >= 0;
}

/* A range's name: its text, else the StringIds entry of its textId. */
static uint32_t nvtx_name(nsys *s, const tt_sqlv *text, const tt_sqlv *id)
{
    return str_of_id(s, text->type == SQLITE_TEXT ? text : id);
}

/* NVTX: push/pop ranges nest on their thread; start/end ranges may
 * overlap, so they go to the process's async "NVTX" lane; marks are
 * instants. Thread-naming records (NvtxThread, 39) name the lane; "MPI Rank
 * N" also gives the trace's rank. */
static int load_nvtx(nsys *s)
{
    const char *T = "NVTX_EVENTS";
    const char *col[6];
    rowsrc r;
    const tt_sqlv *v = r.v;
    int rc;
    uint64_t n = 0;
    if (!table_exists(s, T) || !column_exists(s, T, "globalTid"))
        return 0;
    /* thread names first, so the lanes get them whatever the row order */
    col[0] = col_or_null(s, T, "text");
    col[1] = col_or_null(s, T, "textId");
    col[2] = "globalTid";
    col[3] = "eventType";
    if (rows_open(s, &r, T, col, 4, 1u << 0 | 1u << 1, "eventType IN (39, 72)"))
        return -1;
    while ((rc = rows_next(s, &r)) > 0) {
        uint32_t name;
        int rank;
        /* the scan reads every row: the query's condition again */
        if (!(v[3].type == SQLITE_INTEGER ||
              (v[3].type == SQLITE_FLOAT && v[3].d == (double)v[3].i)) ||
            (v[3].i != 39 && v[3].i != 72))
            continue;
        if (!(name = nvtx_name(s, &v[0], &v[1])))
            continue;
        if (name == TT_STR_ERROR || tt_u64map_put(&s->thread, (uint64_t)v[2].i, name)) {
            rows_close(&r);
            return oom(s);
        }
        if (thread_rank(tt_str(s->tr, name), &rank))
            s->tr->rank = rank;
    }
    rows_close(&r);
    if (rc < 0)
        return -1;
    col[0] = "start";
    col[1] = "end";
    col[2] = "eventType";
    col[3] = col_or_null(s, T, "text");
    col[4] = col_or_null(s, T, "textId");
    col[5] = "globalTid";
    if (rows_open(s, &r, T, col, 6, 1u << 3 | 1u << 4, NULL))
        return -1;
    while ((rc = rows_next(s, &r)) > 0) {
        int64_t start = v[0].i, type = v[2].i;
        int64_t gtid = v[5].i, idx;
        bool has_end = v[1].type == SQLITE_INTEGER;
        uint32_t name = nvtx_name(s, &v[3], &v[4]);
        uint32_t lane;
        if (type == 39 || type == 72)
            continue;   /* thread names, read above */
        if (!name)
            name = tt_trace_intern_cstr(s->tr, "(unnamed range)");
        if ((type == 59 || type == 70) && has_end) {
            lane = thread_lane(s, gtid, false);
            idx = push(s, lane, start, v[1].i, name, "nvtx", TT_EV_SLICE);
        } else if ((type == 60 || type == 71) && has_end) {
            lane = thread_lane(s, gtid, true);
            idx = push(s, lane, start, v[1].i, name, "nvtx", TT_EV_ASYNC);
        } else if (type == 34 || type == 65) {
            lane = thread_lane(s, gtid, false);
            idx = push(s, lane, start, start, name, "nvtx", TT_EV_INSTANT);
        } else {
            continue;   /* domains, categories, unterminated ranges */
        }
        if (idx == SKIPPED)
            continue;
        if (idx < 0) {
            rows_close(&r);
            return -1;
        }
        n++;
    }
    rows_close(&r);
    if (rc < 0)
        return -1;
    if (n && tt_trace_tally_phase(s->tr, "nvtx", 4, n))
        return oom(s);
    return 0;
}
/* ---------------------------------------------------------- lane order */

/* Whether b belongs after a in the order finalize sorts lanes into: by
 * start, longer first at equal starts, then in the order pushed. */
static bool ev_before(const tt_event *a, const tt_event *b)
{
    return a->start < b->start || (a->start == b->start && a->dur > b->dur);
}

/* Merge the sorted neighbour runs ev[a, m) and ev[m, b) in place, stably,
 * with the smaller run copied out to buf first (room for it). Writing
 * never overtakes reading: from the front when the left run is out, from
 * the back when the right one is. */
static void merge_runs(tt_event *ev, size_t a, size_t m, size_t b, tt_event *buf)
{
    if (m - a <= b - m) {
        size_t n = m - a, i = 0, j = m, o = a;
        memcpy(buf, ev + a, n * sizeof *ev);
        while (i < n && j < b)
            ev[o++] = ev_before(&ev[j], &buf[i]) ? ev[j++] : buf[i++];
        memcpy(ev + o, buf + i, (n - i) * sizeof *ev);
    } else {
        size_t n = b - m, i = m, j = n, o = b;
        memcpy(buf, ev + m, n * sizeof *ev);
        /* i, j, o: one past the next element to take or place */
        while (j > 0 && i > a)
            ev[--o] = ev_before(&buf[j - 1], &ev[i - 1]) ? ev[--i] : buf[--j];
        memcpy(ev + a, buf, j * sizeof *ev);
    }
}

#define MAX_RUNS 16

/* Put each lane's events in finalize's order (tt_trace_finalize then finds
 * them sorted and leaves them). A lane holds the rows of a few tables
 * (API calls and NVTX ranges of a thread, kernels and copies of a
 * stream), each table in time order as nsys writes it: merging those few
 * runs in place costs a fraction of the radix sort and permutation
 * finalize does on an unsorted lane, and needs room for the smaller run
 * only (fresh memory is dear: its page faults). Lanes of many runs are
 * left to finalize. The order is finalize's exactly: runs keep push order
 * among equal events and the merge is stable. s->placed tells whether
 * every lane is in that order now. 0 or -1 (OOM). */
static int sort_lanes(nsys *s)
{
    tt_event *buf = NULL;
    size_t cap = 0;
    s->placed = true;
    for (uint32_t li = 0; li < s->tr->n_lanes; li++) {
        tt_lane *l = &s->tr->lanes[li];
        size_t run[MAX_RUNS + 1], nr = 0;
        run[nr++] = 0;
        for (size_t i = 1; i < l->n && nr <= MAX_RUNS; i++)
            if (ev_before(&l->ev[i], &l->ev[i - 1]))
                run[nr++] = i;
        if (nr > MAX_RUNS)
            s->placed = false;
        if (nr == 1 || nr > MAX_RUNS)
            continue;
        run[nr] = l->n;
        /* the merged prefix [0, run[k]) takes run k in turn */
        for (size_t k = 1; k < nr; k++) {
            size_t left = run[k], right = run[k + 1] - run[k];
            size_t need = left < right ? left : right;
            if (need > cap) {
                tt_event *nb = realloc(buf, need * sizeof *nb);
                if (!nb) {
                    free(buf);
                    return oom(s);
                }
                buf = nb;
                cap = need;
            }
            merge_runs(l->ev, 0, run[k], run[k + 1], buf);
        }
    }
    free(buf);
    return 0;
}

static int sqlite_decode(tt_input *in, const tt_load_opts *opts, tt_trace *tr, tt_load_info *info,
                         tt_error *err)
{
    nsys s;
    const char *scan_env;
    int rc = -1;
    (void)info;
    if (!tt_input_is_plain_file(in))
        return tt_error_set(err, TT_ERR_UNSUPPORTED,
                            "an SQLite database must be read from a plain file: decompress it "
                            "first (SQLite cannot read %s)",
                            tt_input_compression(in) != TT_COMP_NONE ? "compressed data"
                                                                     : "from a pipe"),
               -1;
    memset(&s, 0, sizeof s);
    s.tr = tr;
    s.opts = opts;
    s.in = in;
    s.err = err;
    tt_u64map_init(&s.str);
    tt_u64map_init(&s.lanes);
    tt_u64map_init(&s.gpu_name);
    tt_u64map_init(&s.proc);
    tt_u64map_init(&s.thread);
    /* one thread uses the connection: no mutexes (1-2% of the decode) */
    if (sqlite3_open_v2(tt_input_path(in), &s.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        tt_error_set(err, TT_ERR_IO, "cannot open the SQLite database: %s",
                     s.db ? sqlite3_errmsg(s.db) : "out of memory");
        goto out;
    }
    /* The file may be forged: reading must not run its SQL (views are not
     * read, see table_exists(); trusted_schema keeps functions out of
     * generated columns) nor let it make huge values. cell_size_check
     * makes a damaged page an error every time: without it, some damage
     * read differently from run to run (found by fuzzing). */
    sqlite3_limit(s.db, SQLITE_LIMIT_LENGTH, 64 << 20);
    sqlite3_exec(s.db, "PRAGMA trusted_schema=OFF; PRAGMA cell_size_check=ON", NULL, NULL, NULL);
    if (!table_exists(&s, "StringIds") && !table_exists(&s, "CUPTI_ACTIVITY_KIND_RUNTIME") &&
        !table_exists(&s, "NVTX_EVENTS")) {
        if (sqlite3_errcode(s.db) != SQLITE_OK && sqlite3_errcode(s.db) != SQLITE_DONE &&
            sqlite3_errcode(s.db) != SQLITE_ROW)
            tt_error_set(err, TT_ERR_FORMAT, "cannot read the SQLite database: %s",
                         sqlite3_errmsg(s.db));
        else
            tt_error_set(err, TT_ERR_FORMAT,
                         "an SQLite database, but not an Nsight Systems export (no StringIds, "
                         "CUPTI or NVTX tables)");
        goto out;
    }
    /* the big tables' rows straight from the file where it allows;
     * TRACETTY_SQLITE_SCAN=0, for tests, leaves every table to SQLite */
    if ((!(scan_env = getenv("TRACETTY_SQLITE_SCAN")) || strcmp(scan_env, "0") != 0) &&
        read_lock(&s))
        tt_sqlfile_open(&s.file, tt_input_path(in));
    load_enums(&s);
    if (load_strings(&s) || load_names(&s) || load_gpu(&s, "CUPTI_ACTIVITY_KIND_KERNEL") ||
        load_gpu(&s, "CUPTI_ACTIVITY_KIND_MEMCPY") || load_gpu(&s, "CUPTI_ACTIVITY_KIND_MEMSET") ||
        load_nvtx(&s) || load_api(&s, "CUPTI_ACTIVITY_KIND_RUNTIME", "cuda_runtime") ||
        load_api(&s, "CUPTI_ACTIVITY_KIND_DRIVER", "cuda_driver") || sort_lanes(&s))
        goto out;
    /* the flows, between events where they now stay */
    if (tt_nsys_flows_resolve(tr, s.flows, s.placed, s.ac2g)) {
        oom(&s);
        goto out;
    }
    if (!table_exists(&s, "CUPTI_ACTIVITY_KIND_KERNEL"))
        snprintf(tr->note, sizeof tr->note,
                 "this export has no kernel table (no CUDA kernels were traced)");
    /* SQLite read the file itself: its size is what was decoded */
    tr->source_bytes = tt_input_file_size(in);
    progress(&s);
    rc = 0;
out:
    sqlite3_close(s.db);
    tt_sqlfile_close(&s.file);
    tt_u64map_fini(&s.str);
    free(s.dense);
    tt_u64map_fini(&s.lanes);
    tt_u64map_fini(&s.gpu_name);
    tt_u64map_fini(&s.proc);
    tt_u64map_fini(&s.thread);
    return rc;
}


static int sqlite_probe(const unsigned char *head, size_t n)
{
    return n >= 16 && memcmp(head, "SQLite format 3", 16) == 0 ? 100 : 0;
}

const tt_decoder tt_decoder_nsys_sqlite = {
    .name = "nsys-sqlite",
    .description = "Nsight Systems SQLite export (nsys export --type sqlite)",
    .probe = sqlite_probe,
    .decode = sqlite_decode,
};
