/* sqlite_scan.h - a table's rows read straight from the pages of an
 * SQLite database file, for the large tables of an Nsight Systems export
 * (nsys_sqlite.c).
 *
 * Reading a row through libsqlite3 runs its virtual machine: a step, an
 * OP_Column and a column call per value, more than half of the decode of
 * a large export. The file format is simple for what an export holds (a
 * rowid table's b-tree: interior pages of child pointers, leaf pages of
 * records), so a plain scan in rowid order, which is the order SQLite's
 * own full scan returns, can be read here instead.
 *
 * Only the plain case is read here; anything else is left to SQLite,
 * whose answers (values, errors) stay the reference: tt_sqlfile_open()
 * refuses a database that is not a UTF-8 rollback-journal file with a
 * consistent size and no journal beside it, tt_sqlscan_open() refuses a
 * table whose b-tree or records hold anything unusual (a page out of
 * range or seen twice, cells out of their page, overflow pages, records
 * too short for a column, values of a type the caller did not allow). It
 * checks every row before the caller sees the first one, so that a
 * refusal costs nothing already decoded. Callers ask SQLite then, and are
 * told exactly what they were before.
 *
 * A file changed while it is read (by a writer that ignores SQLite's
 * locks: the caller's read transaction stops the others) gives an error
 * (tt_sqlscan_next() returns -1), never a read out of the mapping; one
 * truncated meanwhile gets SIGBUS, as the JSON decoder's mapping does
 * (chrome_chunks.c).
 *
 * Ownership: a tt_sqlfile opens and maps the file read-only
 * (tt_sqlfile_close() unmaps and closes it); a tt_sqlscan borrows its file and owns its list of leaf
 * pages (tt_sqlscan_close()). Values point into the mapping.
 */
#ifndef TT_DECODE_SQLITE_SCAN_H
#define TT_DECODE_SQLITE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One value of a row: type is SQLITE_NULL, SQLITE_INTEGER or SQLITE_TEXT
 * (the only ones a scan returns); i is the integer (0 for NULL), s and n
 * a text's bytes (not NUL-terminated); d, the value of a SQLITE_FLOAT
 * (SQLite's reads only). */
typedef struct tt_sqlv {
    int64_t     i;
    double      d;
    const char *s;
    size_t      n;
    int         type;
} tt_sqlv;

typedef struct tt_sqlfile {
    const unsigned char *map;   /* NULL: not opened */
    size_t               size;
    uint32_t             page;   /* page size */
    uint32_t             usable; /* page size less reserved bytes */
    uint32_t             npages;
    uint32_t             change; /* the header's file change counter at open */
    int                  fd;
    bool                 fd_open;
} tt_sqlfile;

/* Map the database at path: 0, or -1 when it is not one a scan reads
 * (SQLite then reads everything). The caller's connection must hold a
 * read transaction on it (BEGIN, then a read): no writer commits
 * meanwhile, and the open checks through SQLite's shared lock that the
 * file mapped is the one SQLite has open (not another since renamed over
 * path). Either way, tt_sqlfile_close() must come after SQLite's close:
 * f keeps a descriptor of the file open, and closing it would drop all
 * of this process's POSIX locks on the file, SQLite's too (fcntl(2)). */
int tt_sqlfile_open(tt_sqlfile *f, const char *path);
void tt_sqlfile_close(tt_sqlfile *f);

#define TT_SQLSCAN_MAX_COLS 32
#define TT_SQLSCAN_HDRS 4

typedef struct tt_sqlscan {
    const tt_sqlfile *f;
    /* the table's leaf pages, in key order, with the cell count checked
     * at open (a later read of the page's count could have changed) */
    struct tt_sqlleaf {
        uint32_t pg, n;
    }                *leaf;
    size_t            n_leaf, at_leaf;
    uint32_t          cell, n_cell;
    int               ncol;
    int               field[TT_SQLSCAN_MAX_COLS]; /* record field of a column, -1: NULL */
    uint32_t          text_ok; /* bit c: column c may hold text */
    int               last;    /* the highest field asked for */
    /* the last few record headers read, the latest in hdr[last_hdr] */
    struct tt_sqlhdr {
        const unsigned char *at;   /* in the mapping; NULL: none */
        uint64_t             hs, len; /* its length and its payload's */
        /* where it puts each column: serial type, offset in the record */
        uint64_t             st[TT_SQLSCAN_MAX_COLS];
        uint32_t             off[TT_SQLSCAN_MAX_COLS];
    } hdr[TT_SQLSCAN_HDRS];
    unsigned          last_hdr;
} tt_sqlscan;

/* Open a scan of the rowid table whose b-tree starts at page root, ncol
 * columns (at most TT_SQLSCAN_MAX_COLS) each the record field field[c]
 * (-1: always NULL), integers or NULL, or text too where bit c of text_ok
 * is set. Every row is checked here. 0, or -1 when SQLite must read the
 * table (then sc needs no close). */
int tt_sqlscan_open(tt_sqlscan *sc, const tt_sqlfile *f, uint32_t root, int ncol,
                    const int *field, uint32_t text_ok);

/* The next row's values in v[0..ncol): 1, 0 after the last, -1 when the
 * file changed since the open (a row no longer reads, or, after the last,
 * the header's change counter moved). */
int tt_sqlscan_next(tt_sqlscan *sc, tt_sqlv *v);

void tt_sqlscan_close(tt_sqlscan *sc);

#endif
