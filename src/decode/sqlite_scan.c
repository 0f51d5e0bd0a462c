/* sqlite_scan.c - rows of a rowid table read from the database file's
 * pages (see sqlite_scan.h).
 *
 * The format (https://www.sqlite.org/fileformat2.html): a rowid table is
 * a b-tree of pages; an interior page (type 5) holds cells of a child
 * page and a key, plus a right-most child; a leaf (type 13) holds cells of
 * a payload length, a rowid and the record, whose header lists a serial
 * type per field. Visiting the children in order gives the rows in rowid
 * order, the order of SQLite's full scan of the table.
 *
 * The checks are SQLite's (with PRAGMA cell_size_check on) and more: a
 * page type, a cell count within the page, each cell inside the usable
 * part of its page and past the cell pointers, a child page in the
 * database and met once, a depth SQLite's cursor allows, a record whose
 * header and fields add up to its payload. Where SQLite would report
 * corruption, or read something this file does not (an overflow page, a
 * field missing from a short record, a REAL), the scan is refused.
 */
#include "config.h"

#include "decode/sqlite_scan.h"
#include "util/grow.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

/* SQLite's cursor depth (BTCURSOR_MAX_DEPTH 20), kept well within. */
#define MAX_DEPTH 18
/* The fields a scan's header walk keeps (a column's field is below). */
#define MAX_FIELDS 64

static uint32_t get2(const unsigned char *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t get4(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* varint() of more than a byte. */
static size_t varint_long(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = 0; i < 8; i++) {
        if (p + i >= end)
            return 0;
        x = x << 7 | (p[i] & 0x7f);
        if (!(p[i] & 0x80)) {
            *v = x;
            return i + 1;
        }
    }
    if (p + 8 >= end)
        return 0;
    *v = x << 8 | p[8];
    return 9;
}

/* The varint at p, ending before end, in *v: its length, 0 when it runs
 * past end. */
static inline size_t varint(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
    if (p < end && *p < 0x80) {
        *v = *p;
        return 1;
    }
    return varint_long(p, end, v);
}

/* The length of the varint at p, ending before end; 0 when it runs past
 * end. */
static inline size_t varint_skip(const unsigned char *p, const unsigned char *end)
{
    for (size_t i = 0; i < 9 && p + i < end; i++)
        if (!(p[i] & 0x80) || i == 8)
            return i + 1;
    return 0;
}

/* Whether the n bytes at a and b are the same: a record header's few
 * bytes, compared eight at a time (a call to memcmp() cost more). */
static inline bool same(const unsigned char *a, const unsigned char *b, size_t n)
{
    uint64_t x, y;
    for (; n >= 8; n -= 8, a += 8, b += 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return false;
    }
    while (n--)
        if (*a++ != *b++)
            return false;
    return true;
}

static bool exists(const char *path, const char *suffix)
{
    char name[PATH_MAX + 16];
    int n = snprintf(name, sizeof name, "%s%s", path, suffix);
    return n < 0 || (size_t)n >= sizeof name || access(name, F_OK) == 0;
}

/* Whether this process holds SQLite's shared lock on the file open at
 * fd (a read transaction's: a read lock on its SHARED_FIRST range,
 * os_unix.c): then fd is the file SQLite reads, same device and inode,
 * and no writer that takes SQLite's locks can commit to it. An open file
 * description's lock query sees the process's own POSIX locks as
 * conflicts (fcntl(2)); another reader's lock found first, or no such
 * query, leaves the file to SQLite. */
static bool sqlite_holds(int fd)
{
#ifdef F_OFD_GETLK
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = 0x40000000 + 2;   /* PENDING_BYTE + 2 */
    fl.l_len = 510;                /* SHARED_SIZE */
    return fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type == F_RDLCK && fl.l_pid == getpid();
#else
    (void)fd;
    return false;
#endif
}

int tt_sqlfile_open(tt_sqlfile *f, const char *path)
{
    struct stat sb;
    const unsigned char *m;
    uint32_t page, filepages, npages;
    int fd;
    void *map;
    memset(f, 0, sizeof *f);
    /* a journal or a write-ahead log may hold what SQLite would read */
    if (!path || exists(path, "-journal") || exists(path, "-wal"))
        return -1;
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return -1;
    /* kept open until tt_sqlfile_close(), after SQLite's: closing it
     * would drop this process's locks on the file, SQLite's too */
    f->fd = fd;
    f->fd_open = true;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 512 ||
        (uint64_t)sb.st_size > SIZE_MAX)
        return -1;
    if (!sqlite_holds(fd))
        return -1;
    /* populated: the pages are in the page cache (SQLite just read the
     * schema), mapped at once rather than a fault at a time */
    map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED)
        return -1;
    f->map = m = map;
    f->size = (size_t)sb.st_size;
    page = get2(m + 16) == 1 ? 65536 : get2(m + 16);
    filepages = (uint32_t)(f->size / (page ? page : 1));
    /* a valid in-header size, as SQLite takes it */
    npages = get4(m + 28) != 0 && memcmp(m + 24, m + 92, 4) == 0 ? get4(m + 28) : filepages;
    if (memcmp(m, "SQLite format 3", 16) != 0 || page < 512 || (page & (page - 1)) != 0 ||
        m[18] != 1 || m[19] != 1 || page - m[20] < 480 || get4(m + 56) != 1 ||
        f->size % page != 0 || (uint64_t)f->size / page > UINT32_MAX || npages > filepages ||
        npages == 0) {
        munmap(map, f->size);
        f->map = NULL;
        return -1;
    }
    f->page = page;
    f->usable = page - m[20];
    f->npages = npages;
    f->change = get4(m + 24);
    return 0;
}

void tt_sqlfile_close(tt_sqlfile *f)
{
    if (f->map)
        munmap((void *)f->map, f->size);
    if (f->fd_open)
        close(f->fd);
    memset(f, 0, sizeof *f);
}

static const unsigned char *page_at(const tt_sqlfile *f, uint32_t pg)
{
    return f->map + (size_t)(pg - 1) * f->page;
}

/* Whether a page's n cells lie where SQLite's cell_size_check wants them
 * (hdr: its header length, 8 or 12) and the count fits the page. */
static bool cells_ok(const tt_sqlfile *f, uint32_t hdr, uint32_t n)
{
    return n <= (f->page - 8) / 6 && hdr + 2 * n <= f->usable - 4;
}

/* Gather the leaves under page pg (depth: its own) in order. seen: a bit
 * per page. */
static bool gather(tt_sqlscan *sc, uint8_t *seen, uint32_t pg, int depth, bool root,
                   size_t *cap)
{
    const tt_sqlfile *f = sc->f;
    const unsigned char *p;
    uint32_t n;
    /* the page holding the lock bytes (at 1 GiB) is never a b-tree's */
    if (pg < 2 || pg > f->npages || pg == 0x40000000 / f->page + 1 || depth > MAX_DEPTH ||
        (seen[pg >> 3] >> (pg & 7) & 1))
        return false;
    seen[pg >> 3] |= (uint8_t)(1u << (pg & 7));
    p = page_at(f, pg);
    n = get2(p + 3);
    if (p[0] == 13) {
        if ((n == 0 && !root) || !cells_ok(f, 8, n))
            return false;
        if (tt_grow_one((void **)&sc->leaf, cap, sc->n_leaf, sizeof *sc->leaf))
            return false;
        sc->leaf[sc->n_leaf].pg = pg;
        sc->leaf[sc->n_leaf++].n = n;
        return true;
    }
    if (p[0] != 5 || n == 0 || !cells_ok(f, 12, n))
        return false;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t pc = get2(p + 12 + 2 * k);
        uint64_t key;
        if (pc < 12 + 2 * n || pc > f->usable - 4 ||
            varint(p + pc + 4, p + f->usable, &key) == 0 ||
            !gather(sc, seen, get4(p + pc), depth + 1, false, cap))
            return false;
    }
    return gather(sc, seen, get4(p + 8), depth + 1, false, cap);
}

/* The bytes of a value of serial type st below 128 (10 and 11 are not
 * types: a scan refuses them): 12 and up are a BLOB or a text of
 * (st - 12) / 2 bytes. */
#define TS(n) (((n) - 12) / 2)
#define TS8(n) TS(n), TS(n + 1), TS(n + 2), TS(n + 3), TS(n + 4), TS(n + 5), TS(n + 6), TS(n + 7)
static const uint8_t type_size[128] = {
    0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0, TS(12), TS(13), TS(14), TS(15),
    TS8(16), TS8(24), TS8(32), TS8(40), TS8(48), TS8(56), TS8(64), TS8(72),
    TS8(80), TS8(88), TS8(96), TS8(104), TS8(112), TS8(120),
};
#undef TS8
#undef TS

/* Where each column's value lies in a record of header hdr (hs bytes)
 * and payload len, into *out (its st and off): the header read up to
 * the last field asked for, as SQLite reads it for the last column asked
 * for, with SQLite's checks (every field within the payload, the whole
 * payload taken when the header ends there) and the scan's (no short
 * record, no REAL or BLOB, text only where allowed). false: a record a
 * scan does not read. */
static bool read_header(const tt_sqlscan *sc, struct tt_sqlhdr *out, const unsigned char *hdr,
                        size_t h, uint64_t hs, uint64_t len)
{
    const unsigned char *hp = hdr + h, *hend = hdr + hs;
    uint64_t off = hs, t[MAX_FIELDS], at[MAX_FIELDS];
    /* a serial type is mostly one byte (an integer, a short text): its
     * size from the table; the sum is tested once after (64 fields of
     * at most 57 bytes, or of len at most, cannot overflow it) */
    for (int fld = 0; fld <= sc->last; fld++) {
        uint64_t st;
        if (hp >= hend)
            return false;   /* a short record: SQLite gives the default */
        if (*hp < 0x80) {
            st = *hp++;
        } else {
            size_t m = varint_long(hp, hend, &st);
            if (!m || (st - 12) / 2 > len)
                return false;
            hp += m;
        }
        if (st == 10 || st == 11)
            return false;
        t[fld] = st;
        at[fld] = off;
        off += st < 128 ? type_size[st] : (st - 12) / 2;
    }
    if (off > len || (hp >= hend && off != len))
        return false;
    for (int col = 0; col < sc->ncol; col++) {
        int i = sc->field[col];
        uint64_t st = i < 0 ? 0 : t[i];
        if (st == 7 || (st >= 12 && (!(st & 1) || !(sc->text_ok >> col & 1))))
            return false;   /* a REAL, a BLOB, or text where none may be */
        out->st[col] = st;
        out->off[col] = i < 0 ? 0 : (uint32_t)at[i];
    }
    return true;
}

/* Row k of leaf p of n cells (the count checked at open) checked, and
 * read into v where get (the open checks
 * each row once, without; the reads check again, for a file changed
 * since, where a row's offsets could lead out of the mapping). A record
 * whose header and length are a recent one's (rows mostly repeat a few
 * lists of types) takes its columns' places from it. false: a row a scan
 * does not read. */
static inline __attribute__((always_inline)) bool row_at(tt_sqlscan *sc, const unsigned char *p,
                                                          uint32_t n, uint32_t k, tt_sqlv *v,
                                                          bool get)
{
    const tt_sqlfile *f = sc->f;
    const unsigned char *end = p + f->usable, *c, *rec;
    uint32_t pc = get2(p + 8 + 2 * k);
    uint64_t len, hs;
    size_t a, b, h;
    struct tt_sqlhdr *hd;
    if (pc < 8 + 2 * n || pc > f->usable - 4)
        return false;
    c = p + pc;
    a = varint(c, end, &len);
    b = varint_skip(c + a, end);   /* the rowid */
    if (!a || !b || len > f->usable - 35 || len > (uint64_t)(end - (c + a + b)))
        return false;   /* out of the page, or on overflow pages */
    rec = c + a + b;
    h = varint(rec, rec + len, &hs);
    if (!h || hs < h || hs > len)
        return false;
    /* the latest header first, then the others */
    for (unsigned e = 0, x = sc->last_hdr;; x = (x + 1) % TT_SQLSCAN_HDRS) {
        hd = &sc->hdr[x];
        if (hd->at && hd->hs == hs && hd->len == len && same(rec, hd->at, hs)) {
            sc->last_hdr = x;
            break;
        }
        if (++e == TT_SQLSCAN_HDRS) {
            /* a new one, in place of the oldest */
            x = (sc->last_hdr + TT_SQLSCAN_HDRS - 1) % TT_SQLSCAN_HDRS;
            hd = &sc->hdr[x];
            hd->at = NULL;
            if (!read_header(sc, hd, rec, h, hs, len))
                return false;
            hd->at = rec;
            hd->hs = hs;
            hd->len = len;
            sc->last_hdr = x;
            break;
        }
    }
    if (!get)
        return true;
    for (int col = 0; col < sc->ncol; col++) {
        uint64_t st = hd->st[col], u;
        const unsigned char *d = rec + hd->off[col];
        tt_sqlv *x = &v[col];
        x->type = SQLITE_INTEGER;
        switch (st) {
        case 0:
            x->type = SQLITE_NULL;
            x->i = 0;
            break;
        case 1:
            x->i = (int8_t)d[0];
            break;
        case 2:
            x->i = (int16_t)(uint16_t)(d[0] << 8 | d[1]);
            break;
        case 3:
            u = (uint64_t)d[0] << 16 | (uint64_t)d[1] << 8 | d[2];
            x->i = (int64_t)(u ^ 0x800000) - 0x800000;
            break;
        case 4:
            x->i = (int32_t)get4(d);
            break;
        case 5:
            u = (uint64_t)get2(d) << 32 | get4(d + 2);
            x->i = (int64_t)(u ^ 0x800000000000) - 0x800000000000;
            break;
        case 6:
            x->i = (int64_t)((uint64_t)get4(d) << 32 | get4(d + 4));
            break;
        case 8:
        case 9:   /* the constants 0 and 1 */
            x->i = st == 9;
            break;
        default:   /* text (read_header() let no other type through) */
            x->type = SQLITE_TEXT;
            x->i = 0;
            x->s = (const char *)d;
            x->n = (size_t)(st - 13) / 2;
            break;
        }
    }
    return true;
}

int tt_sqlscan_open(tt_sqlscan *sc, const tt_sqlfile *f, uint32_t root, int ncol,
                    const int *field, uint32_t text_ok)
{
    uint8_t *seen;
    size_t cap = 0;
    bool ok;
    memset(sc, 0, sizeof *sc);
    if (!f->map || ncol < 0 || ncol > TT_SQLSCAN_MAX_COLS)
        return -1;
    sc->f = f;
    sc->ncol = ncol;
    sc->text_ok = text_ok;
    sc->last = -1;
    for (int c = 0; c < ncol; c++) {
        if (field[c] >= MAX_FIELDS)
            return -1;
        sc->field[c] = field[c];
        if (field[c] > sc->last)
            sc->last = field[c];
    }
    if (!(seen = calloc((size_t)f->npages / 8 + 1, 1)))
        return -1;
    ok = gather(sc, seen, root, 0, true, &cap);
    free(seen);
    /* every row read once before the caller sees one */
    for (size_t l = 0; ok && l < sc->n_leaf; l++) {
        const unsigned char *p = page_at(f, sc->leaf[l].pg);
        for (uint32_t k = 0; ok && k < sc->leaf[l].n; k++)
            ok = row_at(sc, p, sc->leaf[l].n, k, NULL, false);
    }
    if (!ok) {
        tt_sqlscan_close(sc);
        return -1;
    }
    sc->n_cell = sc->n_leaf ? sc->leaf[0].n : 0;
    return 0;
}

int tt_sqlscan_next(tt_sqlscan *sc, tt_sqlv *v)
{
    while (sc->at_leaf < sc->n_leaf) {
        const unsigned char *p = page_at(sc->f, sc->leaf[sc->at_leaf].pg);
        if (sc->cell < sc->n_cell)
            return row_at(sc, p, sc->n_cell, sc->cell++, v, true) ? 1 : -1;
        if (++sc->at_leaf < sc->n_leaf)
            sc->n_cell = sc->leaf[sc->at_leaf].n;
        sc->cell = 0;
    }
    /* rows read from a file changed meanwhile may mix two versions */
    return get4(sc->f->map + 24) == sc->f->change ? 0 : -1;
}

void tt_sqlscan_close(tt_sqlscan *sc)
{
    free(sc->leaf);
    sc->leaf = NULL;
    sc->n_leaf = sc->at_leaf = 0;
}
