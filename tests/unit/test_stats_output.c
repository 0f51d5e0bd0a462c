/* test_stats_output.c - how reports reach the user: the CSV/JSON/text
 * writer and atomic output files.
 *
 * CSV is read back with libcsv's parser (an independent RFC 4180 reader)
 * and must give the same fields, with the formula guard on text cells only;
 * JSON is read back with cJSON; text tables are checked for alignment and
 * trailing blanks. Atomic files: commit replaces the target in one step,
 * abort and failures leave nothing (not even the temporary file), the mode
 * follows the umask, and the signal-time cleanup removes the temporary.
 */
#include "config.h"

#include "../tap.h"
#include "io/atomic.h"
#include "report/writer.h"
#include "util/text.h"

#include <cjson/cJSON.h>
#include <csv.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

typedef struct parsed {
    char  *field[64];
    size_t n;
    size_t rows;
    size_t row_len[16];
    char  *cell[16][16];
} parsed;

static void on_field(void *s, size_t n, void *ctx)
{
    parsed *p = ctx;
    if (p->rows < 16 && p->row_len[p->rows] < 16) {
        char *c = malloc(n + 1);
        memcpy(c, s ? s : "", n);
        c[n] = '\0';
        p->cell[p->rows][p->row_len[p->rows]++] = c;
    }
}

static void on_row(int ch, void *ctx)
{
    (void)ch;
    ((parsed *)ctx)->rows++;
}

static void parse_csv(const char *text, size_t n, parsed *p)
{
    struct csv_parser cp;
    memset(p, 0, sizeof *p);
    csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI);
    ok(csv_parse(&cp, text, n, on_field, on_row, p) == n, "libcsv parses the output");
    ok(csv_fini(&cp, on_field, on_row, p) == 0, "libcsv: no error at the end");
    csv_free(&cp);
}

static void free_parsed(parsed *p)
{
    for (size_t r = 0; r < 16; r++)
        for (size_t c = 0; c < p->row_len[r]; c++)
            free(p->cell[r][c]);
}

static const tt_col cols[] = {
    {"Name", "name", TT_COL_TEXT, 0, false},
    {"Total (ns)", "total_ns", TT_COL_INT, 0, false},
    {"Share (%)", "share", TT_COL_REAL, 1, false},
    {"", "extra", TT_COL_INT, 0, true},
    {"Note", "note", TT_COL_TEXT, 0, false},
};
#define NC (sizeof cols / sizeof cols[0])

static const char *const tricky[] = {
    "plain", "comma, inside", "quote \" inside", "line\nbreak", "=SUM(A1:A9)", "+1", "-x",
    "@cmd", "esc\x1b[31mred", "",
};
#define NT (sizeof tricky / sizeof tricky[0])

static char *write_doc(tt_out_format fmt, bool sanitize, bool trace_col, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    tt_writer_opts o;
    tt_writer *w;
    cJSON *doc = cJSON_CreateObject();
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.sanitize = sanitize;
    o.trace_column = trace_col;
    o.bar_title = "Bar";
    cJSON_AddStringToObject(doc, "kind", "test");
    w = tt_writer_new(f, &o, cols, NC, doc);
    tt_writer_trace_begin(w, "-rank0.json", NULL, "title line");
    for (size_t i = 0; i < NT; i++) {
        tt_cell c[NC];
        c[0] = tt_cell_text(tricky[i]);
        c[1] = tt_cell_int(i == 0 ? -5 : (int64_t)i * 1000000);
        c[2] = tt_cell_real(i == 1 ? -0.01 : 12.345);
        c[3] = tt_cell_int(9007199254740993LL);
        c[4] = i == 2 ? tt_cell_none() : tt_cell_text("n");
        tt_writer_row(w, c, (double)i / (NT - 1));
    }
    tt_writer_trace_end(w, NULL, NULL);
    ok(tt_writer_finish(w) == 0, "writer finishes (format %d)", (int)fmt);
    tt_writer_free(w);
    fclose(f);
    *len = n;
    return buf;
}

/* ---------------------------------------------------------------- csv */

static void test_csv(void)
{
    size_t n;
    char *s = write_doc(TT_OUT_CSV, false, true, &n);
    parsed p;
    parse_csv(s, n, &p);
    is_i64((int64_t)p.rows, (int64_t)NT + 1, "header + one record per row");
    is_str(p.cell[0][0], "Trace", "Trace column first with several traces");
    is_i64((int64_t)p.row_len[0], 5, "json-only columns are left out");
    is_str(p.cell[0][2], "Total (ns)", "header text");
    for (size_t i = 0; i < NT; i++) {
        const char *want = tricky[i];
        char guarded[64];
        if (want[0] == '=' || want[0] == '+' || want[0] == '-' || want[0] == '@') {
            snprintf(guarded, sizeof guarded, "'%s", want);
            want = guarded;
        }
        is_str(p.cell[i + 1][1], want, "text cell %zu reads back exactly (guard on formulas)", i);
        is_str(p.cell[i + 1][0], "'-rank0.json", "the Trace cell is guarded too");
    }
    is_str(p.cell[1][2], "-5", "negative numbers are not guarded");
    is_str(p.cell[2][3], "0.0", "-0.01 rounds to 0.0, not -0.0");
    is_str(p.cell[1][3], "12.3", "reals with the column's decimals");
    is_str(p.cell[3][4], "", "an empty cell is empty");
    ok(strstr(s, "\r\n") != NULL && strstr(s, ",-5,") != NULL, "CRLF records, bare numbers");
    ok(strstr(s, "\"esc\x1b[31mred\"") != NULL, "to a file or pipe the real bytes are kept");
    {
        /* every line ends in CRLF, except newlines inside quoted cells */
        size_t lf = 0, crlf = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i] == '\n') {
                lf++;
                crlf += i > 0 && s[i - 1] == '\r';
            }
        is_i64((int64_t)crlf, (int64_t)NT + 1, "one CRLF per record");
        is_i64((int64_t)lf, (int64_t)NT + 2, "the one bare LF is inside a quoted cell");
    }
    free_parsed(&p);
    free(s);

    s = write_doc(TT_OUT_CSV, true, false, &n);
    ok(strstr(s, "\x1b") == NULL && strstr(s, "esc\\e[31mred") != NULL,
       "to a terminal control characters are escaped");
    ok(strncmp(s, "\"Name\"", 6) == 0, "no Trace column for one trace");
    free(s);
}

/* --------------------------------------------------------------- json */

static void test_json(void)
{
    size_t n;
    char *s = write_doc(TT_OUT_JSON, false, true, &n);
    cJSON *o = cJSON_ParseWithLength(s, n), *t, *rows, *r;
    ok(o != NULL, "JSON output parses");
    ok(cJSON_IsString(cJSON_GetObjectItem(o, "kind")), "document fields first");
    t = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "traces"), 0);
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(t, "trace")), "-rank0.json",
           "trace name, not guarded in JSON");
    rows = cJSON_GetObjectItem(t, "rows");
    is_i64(cJSON_GetArraySize(rows), (int64_t)NT, "one object per row");
    r = cJSON_GetArrayItem(rows, 3);
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(r, "name")), "line\nbreak",
           "strings keep their bytes");
    r = cJSON_GetArrayItem(rows, 2);
    ok(cJSON_IsNull(cJSON_GetObjectItem(r, "note")), "an empty cell is null");
    ok(strstr(s, "\"extra\":9007199254740993") != NULL, "integers beyond 2^53 stay exact");
    ok(strstr(s, "\"=SUM(A1:A9)\"") != NULL, "no formula guard in JSON");
    cJSON_Delete(o);
    free(s);
    s = write_doc(TT_OUT_JSON, true, true, &n);
    ok(strstr(s, "\\u001b") == NULL && strstr(s, "esc\\\\e[31mred") != NULL,
       "JSON to a terminal: escapes made visible");
    free(s);
}

/* --------------------------------------------------------------- text */

static void test_text(void)
{
    size_t n;
    char *s = write_doc(TT_OUT_TEXT, false, false, &n);
    char *lines[32];
    size_t nl = 0;
    char *p = s;
    ok(strstr(s, "esc\\e[31mred") && strstr(s, "line\\nbreak") && !strchr(s, '\x1b'),
       "text is always sanitized");
    while (*p && nl < 32) {
        char *e = strchr(p, '\n');
        lines[nl++] = p;
        if (!e)
            break;
        *e = '\0';
        p = e + 1;
    }
    is_str(lines[0], "title line", "title line first");
    ok(strncmp(lines[1], "Name", 4) == 0 && strstr(lines[1], "Total (ns)") != NULL,
       "header row");
    ok(lines[2][0] == '-', "dashes under the header");
    {
        /* the Total column ends at the same place on every row */
        const char *h = strstr(lines[1], "Total (ns)");
        size_t end = (size_t)(h - lines[1]) + strlen("Total (ns)");
        ok(lines[3 + 1][end - 1] != ' ' && lines[3 + 1][end] == ' ', "numbers right-aligned");
        ok(strstr(lines[3 + 1], "1,000,000") != NULL, "thousands separators");
    }
    {
        int trailing = 0, bars = 0;
        for (size_t i = 0; i < nl; i++) {
            size_t len = strlen(lines[i]);
            trailing += len > 0 && lines[i][len - 1] == ' ';
            bars += strstr(lines[i], "##########") != NULL;
        }
        ok(trailing == 0, "no line ends in a blank");
        ok(bars >= 5, "bars drawn in '#' without UTF-8");
    }
    free(s);
    {
        char bar[128];
        tt_writer_bar(false, 0.5, 20, bar, sizeof bar);
        is_str(bar, "##########          ", "half bar, ASCII");
        tt_writer_bar(true, 0.25, 2, bar, sizeof bar);
        is_str(bar, "\xe2\x96\x8c ", "eighth steps in UTF-8");
    }
}

/* ------------------------------------------------------------- atomic */

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    static char buf[256];
    size_t n;
    if (!f)
        return NULL;
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_atomic(void)
{
    const char *base = getenv("builddir");
    char dir[512], path[600], sub[600];
    tt_atomic a;
    tt_error err;
    struct stat st;
    mode_t old = umask(022);

    snprintf(dir, sizeof dir, "%s/tt-atomic-XXXXXX", base ? base : ".");
    if (!mkdtemp(dir)) {
        ok(0, "cannot make a scratch directory");
        return;
    }
    snprintf(path, sizeof path, "%s/report.csv", dir);

    ok(tt_atomic_open(&a, path, &err) == 0, "open");
    fputs("hello\n", tt_atomic_file(&a));
    ok(access(path, F_OK) != 0, "the target does not exist before commit");
    ok(tt_atomic_commit(&a, &err) == 0, "commit");
    is_str(slurp(path), "hello\n", "committed content");
    is_i64(count_files(dir), 1, "no temporary file left");
    ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644, "mode 0666 minus umask 022");

    ok(tt_atomic_open(&a, path, &err) == 0, "open over an existing file");
    ok(tt_atomic_write(&a, "new", 3, &err) == 0, "write");
    is_str(slurp(path), "hello\n", "the old file is intact while writing");
    tt_atomic_abort(&a);
    is_str(slurp(path), "hello\n", "abort leaves the old file");
    is_i64(count_files(dir), 1, "abort removes the temporary file");

    ok(tt_atomic_open(&a, path, &err) == 0, "open again");
    ok(tt_atomic_write(&a, "new", 3, &err) == 0, "write again");
    is_i64(count_files(dir), 2, "the temporary file sits beside the target");
    tt_atomic_signal_cleanup();
    is_i64(count_files(dir), 1, "signal-time cleanup removes it");
    tt_atomic_abort(&a);
    is_str(slurp(path), "hello\n", "and the target is untouched");

    ok(tt_atomic_open(&a, path, &err) == 0, "open a third time");
    fputs("replaced", tt_atomic_file(&a));
    ok(tt_atomic_commit(&a, &err) == 0 && strcmp(slurp(path), "replaced") == 0,
       "commit replaces the target");

    snprintf(sub, sizeof sub, "%s/missing/report.csv", dir);
    ok(tt_atomic_open(&a, sub, &err) != 0 && strstr(err.what, "cannot create"),
       "a missing directory is an error: %s", err.what);
    ok(tt_atomic_open(&a, dir, &err) != 0 && strstr(err.what, "directory"),
       "a directory as target is an error");
    {
        tt_atomic z;
        memset(&z, 0, sizeof z);
        tt_atomic_abort(&z);
        ok(1, "abort of a never-opened writer is harmless");
    }
    unlink(path);
    ok(rmdir(dir) == 0, "scratch directory empty at the end");
    umask(old);
}

int main(void)
{
    tt_text_set_utf8(false);
    test_csv();
    test_json();
    test_text();
    test_atomic();
    return tap_done();
}
