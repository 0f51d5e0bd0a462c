/* argcols.c - argument records as templates and number columns (see
 * argcols.h).
 *
 * The encoder reads the store once in handle order (each block is
 * decompressed once), cuts every record into a template and its numbers,
 * and only then walks the records in snapshot order: templates and columns
 * are numbered by first use in that order, so the payload does not depend
 * on how the store happened to be laid out (re-encoding a decoded trace
 * gives the same bytes).
 */
#include "config.h"

#include "snapshot/argcols.h"

#include "util/hash.h"
#include "util/num.h"
#include "util/parallel.h"
#include "util/u64map.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { MK_SPLIT = 0, MK_INT = 1, MK_LIT = 2, MK_ESC = 3 };
enum { CK_INT = 0, CK_LIT = 1 };
/* predictors of an integer column: nothing, the column's last number, the
 * record's last number, the correlation id of the record's event, the
 * column's last number in a record of an event of the same name */
enum { PM_RAW, PM_COLUMN, PM_RECORD, PM_CORR, PM_NAME, PM__COUNT };
/* literal columns: the text, or 0 for the text the column had in the last
 * record of an event of the same name */
enum { LM_PLAIN, LM_NAME, LM__COUNT };

#define MAX_COLUMNS 4096u   /* further contexts share one overflow column per kind */
#define MAX_ORDINAL 15u     /* numbers under one key past this share a column */
#define MAX_TOKEN 64u       /* longer runs of digits stay text */
/* The sample of a column that chooses its predictor. The rest of the
 * column is written under the chosen predictor, one number per value,
 * where the trial writes five and then compresses them all: at 65536, a
 * chunk's columns were mostly trial (a 1M-event Kineto trace: a fifth of
 * the encode), and at 8192 still most of the columns' encoding (a
 * 100k-event Kineto trace: 127M instructions, 70M at 1024), for choices
 * that a sample this size makes just as well (the 100k-event trace's
 * snapshot: the same bytes; the 1M-event one: 624 bytes more of 3.98 MB;
 * the real traces in tests: see the commit). */
#define TRIAL_VALUES 1024u
/* Records are cut into chunks of about this much text, each encoded on its
 * own, so that readers rebuild them in parallel. */
#define CHUNK_BYTES ((uint64_t)16 << 20)
#define MAX_THREADS 8u
#define TEXT_PER_BYTE 65536u  /* most text a chunk may rebuild per byte of it */
/* Values are cut into segments of this many that never move (a record's
 * values lie in one): growing one array by doubling copied it again and
 * again, and the records point straight at their values. */
#define SEG_VALUES ((size_t)1 << 18)

/* ------------------------------------------------------------- encoder */

typedef struct tmpl {
    size_t   off, len;         /* skeleton in enc.tbytes */
    size_t   slot0;            /* first entry in enc.tslot */
    uint32_t nslots;
    uint32_t next;             /* next template with the same hash + 1 */
    uint32_t op0, nops;        /* a part's: its match program in enc.mop */
} tmpl;

/* A part's templates as match programs (match_template): runs of text
 * (unescaped, in enc.mtext), slots and the split between a record's two
 * texts. */
enum { MOP_TEXT, MOP_INT, MOP_LIT, MOP_SPLIT };
typedef struct mop {
    uint32_t type, len;        /* len: MOP_TEXT's bytes */
    size_t   off;              /* MOP_TEXT: its text in enc.mtext */
} mop;

/* Templates a part tries first, most recently used first. */
#define MRU_TEMPLATES 8u

/* A segment of values: a literal is offset << 8 | length in enc.lits;
 * kind[i] (CK_INT or CK_LIT) says which, since a literal's offset moves
 * when the parts' texts are joined. */
typedef struct vseg {
    int64_t *v;
    uint8_t *kind;
    size_t   n, cap;
} vseg;

typedef struct enc {
    /* templates: skeletons (text with bare slot markers) and the column
     * (provisional id) of each slot */
    tt_wbuf   tbytes;
    tmpl     *t;
    uint32_t  nt, capt;
    uint32_t *tslot;
    size_t    ntslot, captslot;
    tt_u64map tmap;            /* skeleton hash -> first template + 1 */
    /* columns, provisional ids in order of creation */
    tt_u64map cmap;            /* context key -> column */
    uint8_t  *ckind;
    uint32_t  nc, capc, overflow[2];
    /* records by position: template, first value, bytes of text */
    uint32_t *rtmpl;
    const int64_t **rv;
    uint64_t *rlen;
    /* slot values in reading order, in segments (the last one is being
     * filled); the merged encoder takes over the parts' segments */
    vseg     *seg;
    size_t    nseg, capseg;
    tt_wbuf   lits;
    /* the record being cut */
    tt_wbuf   sk;
    uint64_t *skey;            /* per slot: kind, key hash and ordinal, mixed */
    size_t    nskey, capskey;
    uint64_t  keyset;
    /* A part of the records cut by a thread of its own (enc_cut) makes
     * templates without columns: it keeps what column_of() needs (each
     * template's slot keys and key set) for the merge. */
    bool      part;
    uint64_t *tskey;           /* per template slot, as tslot */
    size_t    captskey;
    uint64_t *tkeyset;         /* per template */
    uint32_t  captkeyset;
    /* A part's templates as match programs, and the ones it tries first */
    mop      *mop;
    uint32_t  nmop, capmop;
    tt_wbuf   mtext;
    uint32_t  mru[MRU_TEMPLATES], nmru;
} enc;

static bool grow32(void *pp, uint32_t *cap, uint32_t need, size_t size)
{
    size_t c = *cap;
    if (need > UINT32_MAX / 2 || !tt_grow(pp, &c, need, size))
        return false;
    *cap = (uint32_t)c;
    return true;
}

/* Text into the skeleton; bytes that mean markers are escaped. */
static void sk_text(tt_wbuf *sk, const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] > MK_ESC)
            j++;
        tt_wbuf_put(sk, s + i, j - i);
        if (j < n) {
            tt_wbuf_byte(sk, MK_ESC);
            tt_wbuf_byte(sk, s[j]);
            j++;
        }
        i = j;
    }
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool is_numch(unsigned char c)
{
    return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

/* -?(0|[1-9][0-9]{0,17}) but not "-0": the texts an int64 prints back as. */
static bool canonical_int(const unsigned char *s, size_t n, int64_t *v)
{
    bool neg = s[0] == '-';
    size_t i = neg ? 1 : 0, digits = n - i;
    uint64_t u = 0;
    if (digits == 0 || digits > 18 || (s[i] == '0' && (digits > 1 || neg)))
        return false;
    for (; i < n; i++) {
        if (!is_digit(s[i]))
            return false;
        u = u * 10 + (uint64_t)(s[i] - '0');
    }
    *v = neg ? -(int64_t)u : (int64_t)u;
    return true;
}

/* Room for a record of `slots` values at most, all in one segment: the
 * next value's place, or NULL when out of memory. */
static int64_t *enc_room(enc *e, size_t slots)
{
    vseg *g = e->nseg ? &e->seg[e->nseg - 1] : NULL;
    if (!tt_grow(&e->skey, &e->capskey, slots + 1, sizeof *e->skey))
        return NULL;
    if (!g || g->cap - g->n < slots) {
        size_t cap = slots > SEG_VALUES ? slots : SEG_VALUES;
        if (!tt_grow(&e->seg, &e->capseg, e->nseg + 1, sizeof *e->seg))
            return NULL;
        g = &e->seg[e->nseg];
        g->v = malloc(cap * sizeof *g->v);
        g->kind = malloc(cap);
        g->n = 0;
        g->cap = cap;
        if (!g->v || !g->kind) {
            free(g->v);
            free(g->kind);
            return NULL;
        }
        e->nseg++;
    }
    return g->v + g->n;
}

/* One value of the record being cut (enc_room() made room for it). */
static void add_slot(enc *e, unsigned kind, uint64_t key, unsigned ord, int64_t v)
{
    vseg *g = &e->seg[e->nseg - 1];
    e->skey[e->nskey++] = tt_hash_mix(key * 0x9e3779b97f4a7c15ULL + (uint64_t)kind * 31 +
                                      (ord < MAX_ORDINAL ? ord : MAX_ORDINAL));
    g->kind[g->n] = (uint8_t)kind;
    g->v[g->n++] = v;
    tt_wbuf_byte(&e->sk, kind == CK_INT ? MK_INT : MK_LIT);
}

/* Cut one text (a record's args or its extra) into e->sk and slots; the
 * caller made room for n / 2 + 1 more values (enc_room: a number is a
 * run of at least one byte, and two runs have a byte between them). */
static bool cut_text(enc *e, const unsigned char *s, size_t n)
{
    uint64_t key = 0;
    unsigned ord = 0;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c == '"') {
            size_t j = i + 1, k;
            while (j < n && s[j] != '"')
                j += s[j] == '\\' ? 2 : 1;
            if (j >= n) {   /* unterminated: the rest is text */
                sk_text(&e->sk, s + i, n - i);
                break;
            }
            sk_text(&e->sk, s + i, j + 1 - i);
            for (k = j + 1; k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r');)
                k++;
            if (k < n && s[k] == ':') {
                key = tt_hash_bytes(s + i + 1, j - i - 1, 0x6b6579);
                ord = 0;
                e->keyset += tt_hash_mix(key);
            }
            i = j + 1;
            continue;
        }
        if (c == '-' || is_digit(c)) {
            size_t j = i + 1;
            bool digit = is_digit(c);
            int64_t v;
            while (j < n && is_numch(s[j])) {
                digit = digit || is_digit(s[j]);
                j++;
            }
            if (!digit || j - i > MAX_TOKEN) {
                sk_text(&e->sk, s + i, j - i);
            } else if (canonical_int(s + i, j - i, &v)) {
                add_slot(e, CK_INT, key, ord++, v);
            } else {
                size_t at = e->lits.n;
                tt_wbuf_put(&e->lits, s + i, j - i);
                add_slot(e, CK_LIT, key, ord++, (int64_t)(at << 8 | (j - i)));
            }
            i = j;
            continue;
        }
        {
            size_t j = i + 1;
            while (j < n && s[j] != '"' && s[j] != '-' && !is_digit(s[j]))
                j++;
            sk_text(&e->sk, s + i, j - i);
            i = j;
        }
    }
    return !e->sk.oom && !e->lits.oom;
}

/* The column of a slot key in a record with this key set. */
static bool column_of(enc *e, uint64_t skey, unsigned kind, uint32_t *out)
{
    uint64_t k = tt_hash_mix(skey ^ e->keyset * 0xc2b2ae3d27d4eb4fULL);
    uint32_t *v = tt_u64map_get(&e->cmap, k);
    if (v) {
        *out = *v;
        return true;
    }
    if (e->nc >= MAX_COLUMNS && e->overflow[kind] != UINT32_MAX) {
        *out = e->overflow[kind];
        return true;
    }
    if (!grow32(&e->ckind, &e->capc, e->nc + 1, 1))
        return false;
    e->ckind[e->nc] = (uint8_t)kind;
    *out = e->nc++;
    if (e->nc > MAX_COLUMNS)
        e->overflow[kind] = *out;
    return tt_u64map_put(&e->cmap, k, *out) == 0;
}

/* One op more for the template being made. */
static bool add_mop(enc *e, uint32_t type)
{
    if (!grow32(&e->mop, &e->capmop, e->nmop + 1, sizeof *e->mop))
        return false;
    e->mop[e->nmop].type = type;
    e->mop[e->nmop].len = 0;
    e->mop[e->nmop].off = e->mtext.n;
    e->nmop++;
    return true;
}

/* t's match program, from its skeleton (e->sk). */
static bool build_match(enc *e, tmpl *t)
{
    const unsigned char *p = e->sk.p;
    t->op0 = e->nmop;
    for (size_t j = 0; j < e->sk.n; j++) {
        unsigned char c = p[j];
        if (c == MK_INT || c == MK_LIT || c == MK_SPLIT) {
            if (!add_mop(e, c == MK_INT ? MOP_INT : c == MK_LIT ? MOP_LIT : MOP_SPLIT))
                return false;
            continue;
        }
        if (c == MK_ESC)
            c = p[++j];
        if (!e->nmop || e->nmop == t->op0 || e->mop[e->nmop - 1].type != MOP_TEXT) {
            if (!add_mop(e, MOP_TEXT))
                return false;
        }
        if (e->mop[e->nmop - 1].len == UINT32_MAX)
            return false;
        tt_wbuf_byte(&e->mtext, c);
        e->mop[e->nmop - 1].len++;
    }
    t->nops = e->nmop - t->op0;
    return !e->mtext.oom;
}

/* The end of a record's values written past g->n (to k), literals from
 * lits0 on: kept when ok and no memory ran out, else dropped. */
static bool values_end(enc *e, vseg *g, size_t k, size_t lits0, bool ok)
{
    if (ok && !e->lits.oom) {
        g->n = k;
        return true;
    }
    e->lits.n = lits0;
    e->lits.oom = false;
    return false;
}

/* Whether the record (a[0..an), x[0..xn)) is template t with numbers in
 * its slots, as cut_text() would have found, given that it cuts text the
 * template spells out the same way every time: the text between two
 * slots decides where a number starts and which key it belongs to, and a
 * slot holds a whole run of number characters (the text after one never
 * starts with such a character). If so, its values go where add_slot()
 * would put them (the caller made room) and literals into e->lits. Most
 * records repeat one of a few templates: this replaces cutting, hashing
 * and looking up their skeletons with a comparison of their text. */
static bool match_template(enc *e, const tmpl *t, const unsigned char *a, size_t an,
                           const unsigned char *x, size_t xn)
{
    const mop *op = e->mop + t->op0, *end = op + t->nops;
    const unsigned char *s = a;
    size_t i = 0, n = an, lits0 = e->lits.n;
    vseg *g = &e->seg[e->nseg - 1];
    size_t k = g->n;
    for (; op < end; op++) {
        if (op->type == MOP_TEXT) {
            if (n - i < op->len || memcmp(s + i, e->mtext.p + op->off, op->len) != 0)
                goto miss;
            i += op->len;
        } else if (op->type == MOP_SPLIT) {
            if (i != n || s != a)
                goto miss;
            s = x;
            i = 0;
            n = xn;
        } else {
            /* canonical_int() and the run of number characters at once */
            size_t j = i, d0, nd;
            uint64_t u = 0;
            bool neg, digit;
            int64_t v;
            if (i >= n || !(s[i] == '-' || is_digit(s[i])))
                goto miss;
            neg = s[i] == '-';
            j += neg;
            for (d0 = j; j < n && is_digit(s[j]); j++)
                u = u * 10 + (uint64_t)(s[j] - '0');   /* wraps past 19 digits: unused then */
            nd = j - d0;
            digit = nd > 0;
            if (j < n && is_numch(s[j])) {
                for (; j < n && is_numch(s[j]); j++)
                    digit = digit || is_digit(s[j]);
                nd = 0;   /* not an integer */
            }
            if (!digit || j - i > MAX_TOKEN)
                goto miss;
            if (nd >= 1 && nd <= 18 && !(s[d0] == '0' && (nd > 1 || neg))) {
                if (op->type != MOP_INT)
                    goto miss;
                v = neg ? -(int64_t)u : (int64_t)u;
                g->kind[k] = CK_INT;
            } else {
                size_t at = e->lits.n;
                if (op->type != MOP_LIT)
                    goto miss;
                tt_wbuf_put(&e->lits, s + i, j - i);
                v = (int64_t)(at << 8 | (j - i));
                g->kind[k] = CK_LIT;
            }
            g->v[k++] = v;
            i = j;
        }
    }
    return values_end(e, g, k, lits0, i == n && s == x);
miss:
    return values_end(e, g, k, lits0, false);
}

/* Template id to the front of a part's recently used ones. */
static void mru_front(enc *e, uint32_t id, uint32_t at)
{
    if (at >= e->nmru)
        at = e->nmru < MRU_TEMPLATES ? e->nmru++ : MRU_TEMPLATES - 1;
    memmove(e->mru + 1, e->mru, at * sizeof *e->mru);
    e->mru[0] = id;
}

/* The template of the record just cut (e->sk, e->skey): found or added. */
static bool find_template(enc *e, uint32_t *out)
{
    uint64_t h = tt_hash_bytes(e->sk.p, e->sk.n, 0x74706c);
    uint32_t *head = tt_u64map_get(&e->tmap, h), id;
    tmpl *t;
    for (uint32_t i = head ? *head : 0; i; i = e->t[i - 1].next) {
        t = &e->t[i - 1];
        /* the skeleton spells out the keys, so it fixes the columns too */
        if (t->len == e->sk.n && memcmp(e->tbytes.p + t->off, e->sk.p, e->sk.n) == 0) {
            *out = i - 1;
            return true;
        }
    }
    if (!grow32(&e->t, &e->capt, e->nt + 1, sizeof *e->t) ||
        !tt_grow(&e->tslot, &e->captslot, e->ntslot + e->nskey, sizeof *e->tslot))
        return false;
    id = e->nt++;
    t = &e->t[id];
    t->off = e->tbytes.n;
    t->len = e->sk.n;
    t->slot0 = e->ntslot;
    t->nslots = (uint32_t)e->nskey;
    t->next = head ? *head : 0;
    tt_wbuf_put(&e->tbytes, e->sk.p, e->sk.n);
    if (e->part) {
        /* the columns are chosen when the parts merge */
        if (!tt_grow(&e->tskey, &e->captskey, e->ntslot + e->nskey, sizeof *e->tskey) ||
            !grow32(&e->tkeyset, &e->captkeyset, e->nt, sizeof *e->tkeyset) ||
            !build_match(e, t))
            return false;
        if (e->nskey)   /* a record without keys: tskey may still be NULL */
            memcpy(e->tskey + e->ntslot, e->skey, e->nskey * sizeof *e->skey);
        e->ntslot += e->nskey;
        e->tkeyset[id] = e->keyset;
        *out = id;
        return !e->tbytes.oom && tt_u64map_put(&e->tmap, h, id + 1) == 0;
    }
    for (size_t s = 0, k = 0; s < e->nskey; s++) {
        /* the marker says the kind */
        while (k < e->sk.n && e->sk.p[k] != MK_INT && e->sk.p[k] != MK_LIT)
            k += e->sk.p[k] == MK_ESC ? 2 : 1;
        if (!column_of(e, e->skey[s], e->sk.p[k] == MK_INT ? CK_INT : CK_LIT,
                       &e->tslot[e->ntslot++]))
            return false;
        k++;
    }
    *out = id;
    return !e->tbytes.oom && tt_u64map_put(&e->tmap, h, id + 1) == 0;
}

static void enc_fini(enc *e)
{
    tt_wbuf_free(&e->tbytes);
    free(e->t);
    free(e->tslot);
    tt_u64map_fini(&e->tmap);
    tt_u64map_fini(&e->cmap);
    free(e->ckind);
    free(e->rtmpl);
    free(e->rv);
    free(e->rlen);
    for (size_t k = 0; k < e->nseg; k++) {
        free(e->seg[k].v);
        free(e->seg[k].kind);
    }
    free(e->seg);
    tt_wbuf_free(&e->lits);
    tt_wbuf_free(&e->sk);
    free(e->skey);
    free(e->tskey);
    free(e->tkeyset);
    free(e->mop);
    tt_wbuf_free(&e->mtext);
}

/* Read the store in handle order, cutting every record named by map. */
/* Records cut by one thread: those with handles [h_lo, h_hi), in handle
 * order, into a part of their own (enc.part). */
/* A store template that is a part template (fits_layout), as a program
 * over its runs: a slot (FIT_INT, FIT_LIT) is its text in the store
 * template's layout (number characters, each '0' a digit run), a
 * FIT_TEXT run is one that the part template spells out (digits in a
 * string): the record's run must be those digits. */
enum { FIT_INT = CK_INT, FIT_LIT = CK_LIT, FIT_TEXT };
typedef struct fit_op {
    uint32_t    kind;
    uint32_t    len;           /* of seg, or the digits */
    const char *seg;           /* FIT_INT, FIT_LIT */
    size_t      off;           /* FIT_TEXT: the digits in enc.tbytes */
} fit_op;

typedef struct fit {
    uint32_t t;                /* the part's template */
    uint32_t op0, nops;        /* its program in cut_job_part.ops */
} fit;

typedef struct cut_job_part {
    enc       e;
    uint32_t  h_lo, h_hi;
    uint32_t  n;               /* records cut */
    int       rc;
    /* per template of the store (tt_args_form.tmpl): FAST_UNKNOWN,
     * FAST_NO, or FAST_T0 + its fit in fits[] */
    uint32_t *fast;
    size_t    cap_fast;
    fit      *fits;
    size_t    nfits, cap_fits;
    fit_op   *ops;
    size_t    nops, cap_ops;
} cut_job_part;

enum { FAST_UNKNOWN, FAST_NO, FAST_T0 };

static bool fit_add(cut_job_part *p, uint32_t kind, uint32_t len, const char *seg, size_t off)
{
    if (!tt_grow(&p->ops, &p->cap_ops, p->nops + 1, sizeof *p->ops))
        return false;
    p->ops[p->nops].kind = kind;
    p->ops[p->nops].len = len;
    p->ops[p->nops].seg = seg;
    p->ops[p->nops].off = off;
    p->nops++;
    return true;
}

/* Whether part template tid is the store's template layout[0..ln) (each
 * of its gaps a '0', its only digits) with no extra text: if so, its fit
 * is added to p and *id says which, else *id is FAST_NO. Then a record of
 * that store template and no extra text is tid whenever each slot's
 * text, its runs filled in, is a number of the slot's kind and each
 * FIT_TEXT run is the template's (fast_values): cut_text() decides where
 * strings, keys and numbers lie from the text between the runs, which
 * the records share, and from the runs being digits; only a number's
 * kind (a canonical integer or not) and length (MAX_TOKEN), and the text
 * of a run that is not in a number, depend on its digits. False when
 * out of memory. */
static bool fits_layout(cut_job_part *p, uint32_t tid, const char *layout, size_t ln,
                        uint32_t *id)
{
    const enc *e = &p->e;
    const tmpl *t = &e->t[tid];
    const unsigned char *k = e->tbytes.p + t->off;
    const unsigned char *l = (const unsigned char *)layout;
    size_t o = 0, op0 = p->nops;
    uint32_t slots = 0;
    *id = FAST_NO;
    if (t->len == 0 || k[t->len - 1] != MK_SPLIT)
        return true;
    for (size_t j = 0; j + 1 < t->len; j++) {
        unsigned char c = k[j];
        if (c == MK_INT || c == MK_LIT) {
            size_t at = o;
            bool gap = false;
            while (o < ln && is_numch(l[o]))
                gap |= l[o++] == '0';
            if (!gap || o - at > MAX_TOKEN)
                goto no;
            if (!fit_add(p, c == MK_INT ? FIT_INT : FIT_LIT, (uint32_t)(o - at), layout + at, 0))
                return false;
            slots++;
            continue;
        }
        if (is_digit(c)) {
            /* a run the template spells out: the layout's gap */
            size_t d = j;
            while (d + 1 < t->len && is_digit(k[d]))
                d++;
            if (o >= ln || l[o] != '0' || d - j > MAX_TOKEN)
                goto no;
            if (!fit_add(p, FIT_TEXT, (uint32_t)(d - j), NULL, t->off + j))
                return false;
            o++;
            j = d - 1;
            continue;
        }
        /* a second split, an escape, or other text */
        if (c <= MK_ESC || o >= ln || l[o] != c)
            goto no;
        o++;
    }
    if (o != ln || slots != t->nslots)
        goto no;
    if (!tt_grow(&p->fits, &p->cap_fits, p->nfits + 1, sizeof *p->fits))
        return false;
    p->fits[p->nfits].t = tid;
    p->fits[p->nfits].op0 = (uint32_t)op0;
    p->fits[p->nfits].nops = (uint32_t)(p->nops - op0);
    *id = FAST_T0 + (uint32_t)p->nfits++;
    return true;
no:
    p->nops = op0;
    return true;
}

/* The values of record f (of a store template that fits_layout() made
 * fit ft) as add_slot() would have added them (the caller made room for
 * its slots): false, with nothing added, when a slot's number is not of
 * its kind (or too long) or a FIT_TEXT run is not the template's. */
static bool fast_values(enc *e, const cut_job_part *p, const fit *ft, const tt_args_form *f)
{
    vseg *g = &e->seg[e->nseg - 1];
    const unsigned char *r = f->runs;
    size_t lits0 = e->lits.n, i = g->n;
    unsigned char tok[MAX_TOKEN + 24];
    for (uint32_t k = 0; k < ft->nops; k++) {
        const fit_op *op = &p->ops[ft->op0 + k];
        size_t n = 0;
        int64_t v;
        if (op->len == 1 && op->kind == FIT_INT && r[0] >= 1 && r[0] <= 18 &&
            (r[1] != '0' || r[0] == 1)) {
            /* the common slot: one run, a canonical integer (as
             * canonical_int() reads it) */
            uint64_t u = 0;
            for (size_t d = 1; d <= r[0]; d++)
                u = u * 10 + (uint64_t)(r[d] - '0');
            r += 1 + r[0];
            g->kind[i] = CK_INT;
            g->v[i++] = (int64_t)u;
            continue;
        }
        if (op->kind == FIT_TEXT) {
            /* a run of 128 digits or more has a longer length varint */
            if (*r != op->len || memcmp(r + 1, e->tbytes.p + op->off, op->len) != 0)
                goto miss;
            r += 1 + op->len;
            continue;
        }
        for (uint32_t c = 0; c < op->len; c++) {
            if (op->seg[c] == '0') {
                size_t len = *r++;   /* a run of 128 digits or more: too long anyway */
                if (len > MAX_TOKEN || n + len > MAX_TOKEN)
                    goto miss;
                memcpy(tok + n, r, len);
                n += len;
                r += len;
            } else {
                if (n + 1 > MAX_TOKEN)
                    goto miss;
                tok[n++] = (unsigned char)op->seg[c];
            }
        }
        if (canonical_int(tok, n, &v)) {
            if (op->kind != FIT_INT)
                goto miss;
            g->kind[i] = CK_INT;
        } else {
            size_t at = e->lits.n;
            if (op->kind != FIT_LIT)
                goto miss;
            tt_wbuf_put(&e->lits, tok, n);
            v = (int64_t)(at << 8 | n);
            g->kind[i] = CK_LIT;
        }
        g->v[i++] = v;
    }
    return values_end(e, g, i, lits0, true);
miss:
    return values_end(e, g, i, lits0, false);
}

/* Each part writes its records straight into the merged encoder's arrays
 * by position (no two parts share a position): its values' place (the
 * segments never move), its bytes of text, and its template in the part,
 * which the merge turns into the merged one. */
typedef struct cut_job {
    const tt_args  *store;
    const uint32_t *map;
    uint32_t        n;
    cut_job_part   *p;
    enc            *out;
} cut_job;

static void cut_part_run(void *ctx, size_t k)
{
    cut_job *j = ctx;
    cut_job_part *cp = &j->p[k];
    enc *e = &cp->e, *out = j->out;
    tt_args_reader r;
    tt_args_form f;
    uint32_t m;
    tt_args_reader_init(&r, j->store);
    for (uint32_t h = cp->h_lo; h < cp->h_hi && cp->rc == 0; h++) {
        const char *a, *x;
        size_t an, xn;
        uint32_t pos = j->map[h], st = 0, fast = FAST_NO;
        if (!pos)
            continue;
        if (pos > j->n || tt_args_read_form(&r, h, &f)) {
            cp->rc = -2;
            break;
        }
        if (f.tmpl && f.elen == 0) {
            /* a record of a store template: its runs straight into the
             * values of the part template that template is, not its text
             * rebuilt and cut again (most of a Kineto trace's records) */
            st = f.tmpl;
            if (st >= cp->cap_fast) {
                size_t was = cp->cap_fast;
                if (!tt_grow(&cp->fast, &cp->cap_fast, (size_t)st + 1, sizeof *cp->fast)) {
                    cp->rc = -1;
                    break;
                }
                memset(cp->fast + was, 0, (cp->cap_fast - was) * sizeof *cp->fast);
            }
            fast = cp->fast[st];
            if (fast >= FAST_T0) {
                const fit *ft = &cp->fits[fast - FAST_T0];
                if (!(out->rv[pos - 1] = enc_room(e, (size_t)e->t[ft->t].nslots + 1))) {
                    cp->rc = -1;
                    break;
                }
                if (fast_values(e, cp, ft, &f)) {
                    out->rlen[pos - 1] = f.layout_len - f.n_runs + f.digits;
                    out->rtmpl[pos - 1] = ft->t;
                    cp->n++;
                    continue;
                }
            }
        }
        if (tt_args_form_text(&r, &f)) {
            cp->rc = -1;
            break;
        }
        a = f.args;
        an = f.alen;
        x = f.extra;
        xn = f.elen;
        e->sk.n = 0;
        e->nskey = 0;
        e->keyset = 0;
        if (!(out->rv[pos - 1] = enc_room(e, an / 2 + xn / 2 + 2))) {
            cp->rc = -1;
            break;
        }
        out->rlen[pos - 1] = an + xn;
        cp->n++;
        for (m = 0; m < e->nmru; m++)
            if (match_template(e, &e->t[e->mru[m]], (const unsigned char *)a, an,
                               (const unsigned char *)x, xn))
                break;
        if (m < e->nmru) {
            uint32_t t = e->mru[m];
            out->rtmpl[pos - 1] = t;
            if (m)
                mru_front(e, t, m);
            if (fast == FAST_UNKNOWN && !fits_layout(cp, t, f.layout, f.layout_len, &cp->fast[st]))
                cp->rc = -1;
            continue;
        }
        if (!cut_text(e, (const unsigned char *)a, an))
            cp->rc = -1;
        tt_wbuf_byte(&e->sk, MK_SPLIT);
        if (cp->rc == 0 && (!cut_text(e, (const unsigned char *)x, xn) ||
                            !find_template(e, &out->rtmpl[pos - 1])))
            cp->rc = -1;
        if (cp->rc == 0) {
            uint32_t t = out->rtmpl[pos - 1];
            for (m = 0; m < e->nmru && e->mru[m] != t; m++)
                ;
            mru_front(e, t, m);
            if (fast == FAST_UNKNOWN && !fits_layout(cp, t, f.layout, f.layout_len, &cp->fast[st]))
                cp->rc = -1;
        }
    }
    tt_args_reader_fini(&r);
}

/* The templates of part p after those of the parts merged into e before
 * it: found, or made with their columns, in the order they first appear,
 * as cutting all records in one pass makes them. *tm (malloc'ed) maps the
 * part's templates to e's. */
static int cut_merge_templates(enc *e, const cut_job_part *p, uint32_t **tm_out)
{
    const enc *q = &p->e;
    uint32_t *tm = malloc(((size_t)q->nt + 1) * sizeof *tm);
    *tm_out = tm;
    if (!tm)
        return -1;
    for (uint32_t t = 0; t < q->nt; t++) {
        const tmpl *qt = &q->t[t];
        e->sk.n = 0;
        tt_wbuf_put(&e->sk, q->tbytes.p + qt->off, qt->len);
        if (!tt_grow(&e->skey, &e->capskey, (size_t)qt->nslots + 1, sizeof *e->skey))
            return -1;
        if (qt->nslots)   /* a template without keys: tskey may be NULL */
            memcpy(e->skey, q->tskey + qt->slot0, qt->nslots * sizeof *e->skey);
        e->nskey = qt->nslots;
        e->keyset = q->tkeyset[t];
        if (e->sk.oom || !find_template(e, &tm[t]))
            return -1;
    }
    return 0;
}

/* The rest of the merge, a thread per part once the templates are merged:
 * the part's literal texts go to their place in e->lits (lbase on), its
 * literal values are moved there too (in place), and its records take
 * their positions. Its values are not copied: e takes over the part's
 * segments (enc_cut) and each record points into them. */
typedef struct merge_job {
    enc          *e;
    cut_job_part *p;
    const uint32_t *map;
    uint32_t    **tm;          /* per part: cut_merge_templates() */
    size_t       *lbase;       /* per part: where its literal texts go */
} merge_job;

static void merge_part_run(void *ctx, size_t k)
{
    merge_job *j = ctx;
    enc *e = j->e;
    cut_job_part *p = &j->p[k];
    const enc *q = &p->e;
    const uint32_t *tm = j->tm[k];
    if (j->lbase[k])
        for (size_t g = 0; g < q->nseg; g++)
            for (size_t v = 0; v < q->seg[g].n; v++)
                if (q->seg[g].kind[v] == CK_LIT)
                    q->seg[g].v[v] += (int64_t)(j->lbase[k] << 8);
    if (q->lits.n)
        memcpy(e->lits.p + j->lbase[k], q->lits.p, q->lits.n);
    for (uint32_t h = p->h_lo; h < p->h_hi; h++)
        if (j->map[h])
            e->rtmpl[j->map[h] - 1] = tm[e->rtmpl[j->map[h] - 1]];
}

/* Records to templates and values, e->rtmpl/rv/rlen by position. The
 * handles are split into ranges cut in parallel (reading and cutting the
 * text is most of an encode), then merged in order: the result is the
 * same as one pass in handle order would give. Only the templates (a
 * handful) are merged on one thread; the records' and literals' share of
 * the merge runs a thread per part again. */
static int enc_cut(enc *e, const tt_args *store, const uint32_t *map, uint32_t n,
                   unsigned threads)
{
    uint32_t count = tt_args_count(store), seen = 0, parts;
    cut_job j;
    merge_job mj;
    size_t lits = 0;
    int rc = 0;
    e->rtmpl = malloc(((size_t)n + 1) * sizeof *e->rtmpl);
    e->rv = malloc(((size_t)n + 1) * sizeof *e->rv);
    e->rlen = malloc(((size_t)n + 1) * sizeof *e->rlen);
    if (!e->rtmpl || !e->rv || !e->rlen)
        return -1;
    if (threads == 0)
        threads = tt_parallel_cores();
    parts = threads < MAX_THREADS ? threads : MAX_THREADS;
    /* a part is worth a thread from some thousands of records */
    if (parts > count / 4096 + 1)
        parts = count / 4096 + 1;
    j.store = store;
    j.map = map;
    j.n = n;
    j.p = calloc(parts, sizeof *j.p);
    j.out = e;
    mj.e = e;
    mj.p = j.p;
    mj.map = map;
    mj.tm = calloc(parts, sizeof *mj.tm);
    mj.lbase = calloc(parts, sizeof *mj.lbase);
    if (!j.p || !mj.tm || !mj.lbase) {
        free(j.p);
        free(mj.tm);
        free(mj.lbase);
        return -1;
    }
    for (uint32_t k = 0; k < parts; k++) {
        cut_job_part *cp = &j.p[k];
        cp->h_lo = 1 + (uint32_t)((uint64_t)count * k / parts);
        cp->h_hi = 1 + (uint32_t)((uint64_t)count * (k + 1) / parts);
        tt_u64map_init(&cp->e.tmap);
        tt_u64map_init(&cp->e.cmap);
        cp->e.part = true;
    }
    tt_parallel_run(parts, parts, cut_part_run, &j);
    for (uint32_t k = 0; k < parts && rc == 0; k++) {
        rc = j.p[k].rc;
        seen += j.p[k].n;
        if (rc == 0)
            rc = cut_merge_templates(e, &j.p[k], &mj.tm[k]);
        mj.lbase[k] = lits;
        lits += j.p[k].e.lits.n;
    }
    if (rc == 0 && !tt_wbuf_reserve(&e->lits, lits + 1))
        rc = -1;
    if (rc == 0) {
        e->lits.n = lits;
        tt_parallel_run(parts, parts, merge_part_run, &mj);
    }
    for (uint32_t k = 0; k < parts && rc == 0; k++) {
        enc *q = &j.p[k].e;
        if (!tt_grow(&e->seg, &e->capseg, e->nseg + q->nseg + 1, sizeof *e->seg)) {
            rc = -1;
            break;
        }
        if (q->nseg)   /* a part with no segments has no array (memcpy from NULL) */
            memcpy(e->seg + e->nseg, q->seg, q->nseg * sizeof *q->seg);
        e->nseg += q->nseg;
        q->nseg = 0;
    }
    for (uint32_t k = 0; k < parts; k++) {
        enc_fini(&j.p[k].e);
        free(j.p[k].fast);
        free(j.p[k].fits);
        free(j.p[k].ops);
        free(mj.tm[k]);
    }
    free(j.p);
    free(mj.tm);
    free(mj.lbase);
    if (rc == 0 && seen != n)
        rc = -2;
    return rc;
}

/* Last value per (column, name), for the by-name predictors. */
typedef struct byname {
    tt_u64map map;
    int64_t  *val;
    size_t    n, cap;
} byname;

/* The value of (column, name); *fresh says it was just made (0). NULL
 * when out of memory. */
static int64_t *byname_slot(byname *b, uint32_t col, uint32_t name, bool *fresh)
{
    uint64_t key = (uint64_t)col << 32 | name;
    uint32_t *i = tt_u64map_get(&b->map, key);
    *fresh = i == NULL;
    if (i)
        return &b->val[*i];
    if (b->n >= UINT32_MAX || !tt_grow(&b->val, &b->cap, b->n + 1, sizeof *b->val) ||
        tt_u64map_put(&b->map, key, (uint32_t)b->n))
        return NULL;
    b->val[b->n] = 0;
    return &b->val[b->n++];
}

static void byname_fini(byname *b)
{
    tt_u64map_fini(&b->map);
    free(b->val);
}

static void put_residual(tt_wbuf *b, int64_t v, int64_t ref)
{
    tt_wbuf_varint(b, tt_zigzag((int64_t)((uint64_t)v - (uint64_t)ref)));
}

/* The records are walked in snapshot order, but their values lie where
 * the cut put them, in argument-store order: in a trace whose events come
 * out of order, each record's values are a cache miss (perf on a 1M-event
 * convert: most of enc_columns' time on the first load of a record's
 * value). So the values of the record this many ahead are fetched early. */
#define PREFETCH_RECORDS 16

static inline void prefetch_values(const int64_t *v)
{
#if defined(__GNUC__)
    __builtin_prefetch(v);
    __builtin_prefetch(v + 8);   /* the next line: a record rarely starts on one */
#else
    (void)v;
#endif
}

/* Columns and templates numbered by first use, in record order. */
typedef struct numbering {
    uint32_t *ct, *tord, ntc;  /* template -> number, number -> template */
    uint32_t *cc, *cord, ncc;  /* the same for columns */
} numbering;

static void numbering_fini(numbering *nb)
{
    free(nb->ct);
    free(nb->tord);
    free(nb->cc);
    free(nb->cord);
}

static bool enc_number(const enc *e, uint32_t lo, uint32_t n, numbering *nb)
{
    memset(nb, 0, sizeof *nb);
    nb->ct = malloc(((size_t)e->nt + 1) * sizeof *nb->ct);
    nb->tord = malloc(((size_t)e->nt + 1) * sizeof *nb->tord);
    nb->cc = malloc(((size_t)e->nc + 1) * sizeof *nb->cc);
    nb->cord = malloc(((size_t)e->nc + 1) * sizeof *nb->cord);
    if (!nb->ct || !nb->tord || !nb->cc || !nb->cord)
        return false;
    memset(nb->ct, 0xff, ((size_t)e->nt + 1) * sizeof *nb->ct);
    memset(nb->cc, 0xff, ((size_t)e->nc + 1) * sizeof *nb->cc);
    for (uint32_t i = lo; i < lo + n; i++) {
        const tmpl *t = &e->t[e->rtmpl[i]];
        if (nb->ct[e->rtmpl[i]] != UINT32_MAX)
            continue;
        nb->tord[nb->ntc] = e->rtmpl[i];
        nb->ct[e->rtmpl[i]] = nb->ntc++;
        for (uint32_t s = 0; s < t->nslots; s++) {
            uint32_t c = e->tslot[t->slot0 + s];
            if (nb->cc[c] == UINT32_MAX) {
                nb->cord[nb->ncc] = c;
                nb->cc[c] = nb->ncc++;
            }
        }
    }
    return true;
}

/* A column's predictor, from its trial data (col[0..PM__COUNT), the first
 * TRIAL_VALUES values or fewer under every predictor; literal columns use
 * the first two, LM_PLAIN and LM_NAME): the one that compresses best. Its
 * data becomes col[0], the column's final data so far, and the others are
 * emptied (not freed: kept for the next chunk). zc and tmp are scratch. */
static void choose_mode(const enc *e, const numbering *nb, uint32_t c, tt_wbuf *col, int level,
                        uint8_t *mode, ZSTD_CCtx *zc, tt_wbuf *tmp)
{
    unsigned modes = e->ckind[nb->cord[c]] == CK_LIT ? LM__COUNT : PM__COUNT;
    mode[c] = (uint8_t)tt_wbuf_smallest(zc, col, modes, level, tmp);
    if (mode[c] != 0) {
        tt_wbuf keep = col[0];
        col[0] = col[mode[c]];
        col[mode[c]] = keep;
    }
    for (unsigned m = 1; m < PM__COUNT; m++)
        col[m].n = 0;
}

/* The columns' data, in one walk over the records: each column's first
 * TRIAL_VALUES values under every predictor (into col[c * PM__COUNT + m]);
 * when its next value comes, its predictor is chosen from them
 * (choose_mode) and that value and all after it are written under it
 * alone, after the chosen trial data (col[c * PM__COUNT]). A column with
 * no more values than that is chosen at the end. The data are those a
 * trial walk and then a final walk under the chosen predictors would
 * write: the predictions are the same (the column's last number, the
 * record's, the event's id, the last of the name: each as the final walk
 * would have it), and the choice is made on the same trial data. One walk
 * instead of two: most chunks have columns past the sample, and the
 * records' values, in argument-store order, are a cache miss each. */
static bool enc_columns(const enc *e, const numbering *nb, uint32_t lo, uint32_t n,
                        const tt_argcols_hint *hint, int level, uint8_t *mode, tt_wbuf *col,
                        ZSTD_CCtx *zc, tt_wbuf *tmp)
{
    int64_t *last = calloc((size_t)nb->ncc + 1, sizeof *last);
    uint32_t *seen = calloc((size_t)nb->ncc + 1, sizeof *seen);
    byname bn;
    bool ok = last && seen;
    memset(&bn, 0, sizeof bn);
    tt_u64map_init(&bn.map);
    for (uint32_t i = lo; i < lo + n && ok; i++) {
        const tmpl *t = &e->t[e->rtmpl[i]];
        const int64_t *v = e->rv[i];
        int64_t prev = 0;
        bool have_prev = false;
        if (i + PREFETCH_RECORDS < lo + n)
            prefetch_values(e->rv[i + PREFETCH_RECORDS]);
        for (uint32_t s = 0; s < t->nslots && ok; s++) {
            uint32_t c = nb->cc[e->tslot[t->slot0 + s]];
            tt_wbuf *b = &col[(size_t)c * PM__COUNT];
            bool lit = e->ckind[e->tslot[t->slot0 + s]] == CK_LIT;
            uint32_t k = seen[c]++;
            bool fresh = true, all = k < TRIAL_VALUES;
            int64_t *named = NULL, ref[PM__COUNT];
            if (k == TRIAL_VALUES)   /* the sample is complete: choose */
                choose_mode(e, nb, c, b, level, mode, zc, tmp);
            /* the column's last value for this name: for the trials, and
             * for the columns predicted by name after them */
            if ((all || mode[c] == (lit ? LM_NAME : PM_NAME)) &&
                !(named = byname_slot(&bn, c, hint[i].name, &fresh))) {
                ok = false;
                break;
            }
            if (lit) {
                size_t at = (size_t)((uint64_t)v[s] >> 8), len = (size_t)(v[s] & 0xff);
                if (all || mode[c] == LM_PLAIN)
                    tt_wbuf_str(b, e->lits.p + at, len);
                if (named) {
                    size_t pat = (size_t)((uint64_t)*named >> 8), plen = (size_t)(*named & 0xff);
                    tt_wbuf *bn_out = all ? &b[LM_NAME] : b;
                    if (!fresh && plen == len && memcmp(e->lits.p + pat, e->lits.p + at, len) == 0) {
                        tt_wbuf_varint(bn_out, 0);
                    } else {
                        tt_wbuf_varint(bn_out, len + 1);
                        tt_wbuf_put(bn_out, e->lits.p + at, len);
                    }
                    *named = v[s];
                }
                continue;
            }
            ref[PM_RAW] = 0;
            ref[PM_COLUMN] = last[c];
            ref[PM_RECORD] = have_prev ? prev : last[c];
            ref[PM_CORR] = hint[i].corr ? (int64_t)hint[i].corr : last[c];
            ref[PM_NAME] = fresh ? last[c] : *named;
            if (all)
                for (unsigned m = 0; m < PM__COUNT; m++)
                    put_residual(&b[m], v[s], ref[m]);
            else
                put_residual(b, v[s], ref[mode[c]]);
            if (named)
                *named = v[s];
            last[c] = prev = v[s];
            have_prev = true;
        }
    }
    for (size_t i = 0; i < ((size_t)nb->ncc + 1) * PM__COUNT; i++)
        ok = ok && !col[i].oom;
    /* the columns that never filled their sample */
    for (uint32_t c = 0; c < nb->ncc && ok; c++)
        if (seen[c] <= TRIAL_VALUES)
            choose_mode(e, nb, c, &col[(size_t)c * PM__COUNT], level, mode, zc, tmp);
    free(last);
    free(seen);
    byname_fini(&bn);
    return ok;
}

/* The payload, in the order argcols.h gives. */
static bool enc_write(const enc *e, const numbering *nb, uint32_t lo, uint32_t n,
                      const tt_argcols_hint *hint, uint32_t n_names, const tt_wbuf *col,
                      const uint8_t *mode, tt_wbuf *out)
{
    tt_wbuf tb = {0};
    size_t *tlen = malloc(((size_t)nb->ntc + 1) * sizeof *tlen);
    uint32_t *last_t = calloc((size_t)n_names + 1, sizeof *last_t);
    bool ok = tlen && last_t;
    /* templates with their final column numbers */
    for (uint32_t k = 0; k < nb->ntc && ok; k++) {
        const tmpl *t = &e->t[nb->tord[k]];
        const unsigned char *p = e->tbytes.p + t->off;
        size_t at = tb.n, slot = t->slot0;
        for (size_t j = 0; j < t->len; j++) {
            tt_wbuf_byte(&tb, p[j]);
            if (p[j] == MK_ESC)
                tt_wbuf_byte(&tb, p[++j]);
            else if (p[j] == MK_INT || p[j] == MK_LIT)
                tt_wbuf_varint(&tb, nb->cc[e->tslot[slot++]]);
        }
        tlen[k] = tb.n - at;
    }
    tt_wbuf_varint(out, n);
    tt_wbuf_varint(out, nb->ntc);
    tt_wbuf_varint(out, nb->ncc);
    for (uint32_t c = 0; c < nb->ncc && ok; c++) {
        tt_wbuf_varint(out, (uint64_t)e->ckind[nb->cord[c]] | (uint64_t)mode[c] << 1);
        tt_wbuf_varint(out, col[(size_t)c * PM__COUNT].n);
    }
    for (uint32_t k = 0; k < nb->ntc && ok; k++)
        tt_wbuf_varint(out, tlen[k]);
    tt_wbuf_put(out, tb.p, tb.n);
    /* each record's template: 0 for the one the last record of the same
     * name had, else the template + 1 */
    for (uint32_t i = lo; i < lo + n && ok; i++) {
        uint32_t t = nb->ct[e->rtmpl[i]];
        tt_wbuf_varint(out, t == last_t[hint[i].name] ? 0 : (uint64_t)t + 1);
        last_t[hint[i].name] = t;
    }
    for (uint32_t c = 0; c < nb->ncc && ok; c++) {
        const tt_wbuf *b = &col[(size_t)c * PM__COUNT];
        tt_wbuf_put(out, b->p, b->n);
    }
    ok = ok && !out->oom && !tb.oom;
    tt_wbuf_free(&tb);
    free(tlen);
    free(last_t);
    return ok;
}

/* A thread's column buffers and trial compressor, kept from one chunk to
 * the next: fresh memory costs a page fault per page, which on some
 * machines is most of what encoding a chunk costs. */
typedef struct chunk_scratch {
    tt_wbuf   *col;
    size_t     ncol;
    ZSTD_CCtx *zc;             /* NULL until the first chunk */
    tt_wbuf    tmp;
} chunk_scratch;

/* col[0..n) of s, emptied: NULL when out of memory. */
static tt_wbuf *scratch_cols(chunk_scratch *s, size_t n)
{
    if (n > s->ncol) {
        size_t cap = s->ncol;
        if (!tt_grow(&s->col, &cap, n, sizeof *s->col))
            return NULL;
        memset(s->col + s->ncol, 0, (cap - s->ncol) * sizeof *s->col);
        s->ncol = cap;
    }
    for (size_t i = 0; i < n; i++) {
        s->col[i].n = 0;
        if (s->col[i].oom) {
            tt_wbuf_free(&s->col[i]);
            memset(&s->col[i], 0, sizeof s->col[i]);
        }
    }
    return s->col;
}

static void scratch_fini(chunk_scratch *s)
{
    for (size_t i = 0; i < s->ncol; i++)
        tt_wbuf_free(&s->col[i]);
    free(s->col);
    ZSTD_freeCCtx(s->zc);
    tt_wbuf_free(&s->tmp);
}

/* One chunk: records [lo, lo + n). */
static int enc_chunk(const enc *e, uint32_t lo, uint32_t n, const tt_argcols_hint *hint,
                     uint32_t n_names, int trial_level, chunk_scratch *sc, tt_wbuf *out)
{
    numbering nb;
    tt_wbuf *col = NULL;
    uint8_t *mode = NULL;
    int rc = -1;
    memset(&nb, 0, sizeof nb);
    if (!sc->zc)
        sc->zc = ZSTD_createCCtx();
    if (sc->zc && enc_number(e, lo, n, &nb)) {
        col = scratch_cols(sc, ((size_t)nb.ncc + 1) * PM__COUNT);
        mode = calloc((size_t)nb.ncc + 1, 1);
    }
    if (col && mode &&
        enc_columns(e, &nb, lo, n, hint, trial_level, mode, col, sc->zc, &sc->tmp) &&
        enc_write(e, &nb, lo, n, hint, n_names, col, mode, out))
        rc = 0;
    free(mode);
    numbering_fini(&nb);
    return rc;
}

/* Chunks are encoded by several threads, each into a buffer of its own
 * (they only read the cut records), then laid out in order: the payload
 * is the same whatever the thread count. A job is a thread that takes
 * the next chunk not taken until none is left, with its scratch. */
typedef struct enc_job {
    const enc             *e;
    const tt_argcols_hint *hint;
    uint32_t               n_names;
    int                    trial_level;
    uint32_t               chunks;
    atomic_uint            next;       /* the next chunk to take */
    uint32_t              *lo, *n;     /* per chunk: first record, count */
    tt_wbuf               *body;       /* per chunk */
    int                   *rc;         /* per chunk */
} enc_job;

static void enc_job_run(void *ctx, size_t worker)
{
    enc_job *j = ctx;
    chunk_scratch sc;
    unsigned k;
    (void)worker;
    memset(&sc, 0, sizeof sc);
    while ((k = atomic_fetch_add(&j->next, 1)) < j->chunks)
        j->rc[k] = enc_chunk(j->e, j->lo[k], j->n[k], j->hint, j->n_names, j->trial_level, &sc,
                             &j->body[k]);
    scratch_fini(&sc);
}

int tt_argcols_encode(const tt_args *store, const uint32_t *map, uint32_t n,
                      const tt_argcols_hint *hint, uint32_t n_names, int trial_level,
                      unsigned threads, tt_wbuf *out)
{
    enc e;
    enc_job j;
    tt_wbuf table = {0};
    uint32_t chunks = 0;
    int rc;

    memset(&e, 0, sizeof e);
    memset(&j, 0, sizeof j);
    tt_u64map_init(&e.tmap);
    tt_u64map_init(&e.cmap);
    e.overflow[0] = e.overflow[1] = UINT32_MAX;
    if ((rc = enc_cut(&e, store, map, n, threads)) != 0)
        goto out;
    /* chunks of about CHUNK_BYTES of text, cut where the text is (so the
     * same records always give the same chunks) */
    for (uint32_t i = 0; i < n; chunks++) {
        uint64_t bytes = 0;
        while (i < n && bytes < CHUNK_BYTES)
            bytes += e.rlen[i++];
    }
    j.lo = calloc((size_t)chunks + 1, sizeof *j.lo);
    j.n = calloc((size_t)chunks + 1, sizeof *j.n);
    j.rc = calloc((size_t)chunks + 1, sizeof *j.rc);
    j.body = calloc((size_t)chunks + 1, sizeof *j.body);
    if (!j.lo || !j.n || !j.rc || !j.body) {
        rc = -1;
        goto out;
    }
    for (uint32_t k = 0, lo = 0, i = 0; i < n; lo = i, k++) {
        uint64_t bytes = 0;
        while (i < n && bytes < CHUNK_BYTES)
            bytes += e.rlen[i++];
        j.lo[k] = lo;
        j.n[k] = i - lo;
    }
    j.e = &e;
    j.hint = hint;
    j.n_names = n_names;
    j.trial_level = trial_level;
    if (threads == 0)
        threads = tt_parallel_cores();
    j.chunks = chunks;
    atomic_init(&j.next, 0);
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    tt_parallel_run(threads < chunks ? threads : chunks, threads, enc_job_run, &j);
    for (uint32_t k = 0; k < chunks && rc == 0; k++) {
        rc = j.rc[k];
        tt_wbuf_varint(&table, j.n[k]);
        tt_wbuf_varint(&table, j.body[k].n);
    }
    if (rc == 0) {
        tt_wbuf_varint(out, n);
        tt_wbuf_varint(out, chunks);
        tt_wbuf_put(out, table.p, table.n);
        for (uint32_t k = 0; k < chunks; k++)
            tt_wbuf_put(out, j.body[k].p, j.body[k].n);
        rc = out->oom || table.oom ? -1 : 0;
    }
out:
    if (j.body)
        for (uint32_t k = 0; k < chunks; k++)
            tt_wbuf_free(&j.body[k]);
    free(j.body);
    free(j.lo);
    free(j.n);
    free(j.rc);
    tt_wbuf_free(&table);
    enc_fini(&e);
    return rc;
}

/* ------------------------------------------------------------- decoder */

enum { OP_TEXT, OP_INT, OP_LIT, OP_SPLIT };

typedef struct op {
    uint32_t type, arg;        /* arg: column, or offset in the text */
    uint32_t len;              /* OP_TEXT */
} op;

typedef struct column {
    tt_rd    rd;
    uint64_t len;
    int64_t  last;
    uint8_t  kind, mode;
} column;

typedef struct dec {
    const unsigned char *base; /* the payload */
    column        *c;
    uint32_t       nc, nt;
    op            *ops;
    uint32_t      *top;        /* ops of template k: [top[k], top[k + 1]) */
    size_t        *room;       /* bytes template k needs, literals aside */
    size_t         nops, capops;
    unsigned char *text;       /* template text, unescaped */
    size_t         ntext;
    uint32_t      *last_t;     /* per name: the template of its last record */
    byname         bn;
    const char    *what;
} dec;

static int dec_bad(dec *d, const char *what)
{
    d->what = what;
    return -2;
}

static bool dec_op(dec *d, uint32_t type, uint32_t arg, uint32_t len)
{
    if (type == OP_TEXT && len == 0)
        return true;
    if (d->nops >= UINT32_MAX - 1 ||
        !tt_grow(&d->ops, &d->capops, d->nops + 1, sizeof *d->ops))
        return false;
    d->ops[d->nops].type = type;
    d->ops[d->nops].arg = arg;
    d->ops[d->nops].len = len;
    d->nops++;
    return true;
}

/* Template bytes [p, end) into ops. */
static int dec_template(dec *d, const unsigned char *p, const unsigned char *end)
{
    tt_rd r = {p, end, false};
    bool split = false;
    size_t run = d->ntext;
    while (r.p < r.end) {
        unsigned char b = *r.p++;
        if (b >= MK_ESC) {
            if (b == MK_ESC) {
                if (r.p == r.end)
                    return dec_bad(d, "template ends in an escape");
                b = *r.p++;
            }
            d->text[d->ntext++] = b;
            continue;
        }
        if (!dec_op(d, OP_TEXT, (uint32_t)run, (uint32_t)(d->ntext - run)))
            return -1;
        run = d->ntext;
        if (b == MK_SPLIT) {
            if (split)
                return dec_bad(d, "template with two ends of the args text");
            split = true;
            if (!dec_op(d, OP_SPLIT, 0, 0))
                return -1;
        } else {
            uint32_t c = tt_rd_u32(&r);
            if (r.bad || c >= d->nc || d->c[c].kind != (b == MK_INT ? CK_INT : CK_LIT))
                return dec_bad(d, "template names a bad column");
            if (!dec_op(d, b == MK_INT ? OP_INT : OP_LIT, c, 0))
                return -1;
        }
    }
    if (!dec_op(d, OP_TEXT, (uint32_t)run, (uint32_t)(d->ntext - run)))
        return -1;
    return split ? 0 : dec_bad(d, "template without the end of the args text");
}

static void dec_fini(dec *d)
{
    free(d->c);
    free(d->ops);
    free(d->top);
    free(d->room);
    free(d->text);
    free(d->last_t);
    byname_fini(&d->bn);
}

/* The next literal of column c into rec. */
static int dec_literal(dec *d, uint32_t col, uint32_t name, tt_wbuf *rec)
{
    column *c = &d->c[col];
    const char *s;
    size_t len;
    if (c->mode == LM_PLAIN) {
        s = tt_rd_str(&c->rd, &len);
    } else {
        bool fresh;
        int64_t *named = byname_slot(&d->bn, col, name, &fresh);
        uint64_t v = tt_rd_varint(&c->rd);
        if (!named)
            return -1;
        if (c->rd.bad)
            return dec_bad(d, "literal column too short");
        if (v == 0) {
            /* the text this column had for the same name: offset << 24 | length */
            if (fresh)
                return dec_bad(d, "literal repeats nothing");
            tt_wbuf_put(rec, d->base + ((uint64_t)*named >> 24), (size_t)(*named & 0xffffff));
            return 0;
        }
        if (v - 1 > 0xffffff)
            return dec_bad(d, "literal too long");
        len = (size_t)(v - 1);
        *named = (int64_t)((uint64_t)(c->rd.p - d->base) << 24 | len);
        s = (const char *)tt_rd_bytes(&c->rd, len);
    }
    if (c->rd.bad)
        return dec_bad(d, "literal column too short");
    tt_wbuf_put(rec, s, len);
    return 0;
}

/* The next number of column c. */
static int dec_number(dec *d, uint32_t col, const tt_argcols_hint *h, int64_t prev,
                      bool have_prev, int64_t *out)
{
    column *c = &d->c[col];
    int64_t ref = c->last, *named = NULL;
    uint64_t u;
    bool fresh = true;
    if (c->mode == PM_RAW)
        ref = 0;
    else if (c->mode == PM_RECORD && have_prev)
        ref = prev;
    else if (c->mode == PM_CORR && h->corr)
        ref = (int64_t)h->corr;
    else if (c->mode == PM_NAME && !(named = byname_slot(&d->bn, col, h->name, &fresh)))
        return -1;
    if (named && !fresh)
        ref = *named;
    u = tt_rd_varint(&c->rd);
    if (c->rd.bad)
        return dec_bad(d, "number column too short");
    *out = (int64_t)((uint64_t)ref + (uint64_t)tt_unzigzag(u));
    c->last = *out;
    if (named)
        *named = *out;
    return 0;
}

/* Rebuild the records: templates walked, numbers read from their columns. */
static int dec_records(dec *d, tt_rd *ids, uint32_t n, const tt_argcols_hint *hint,
                       tt_args *store, uint64_t limit)
{
    tt_wbuf rec = {0};
    uint64_t total = 0;
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        uint64_t t = tt_rd_varint(ids);
        size_t split = 0;
        int64_t prev = 0;
        bool have_prev = false;
        t = t ? t - 1 : d->last_t[hint[i].name];
        if (ids->bad || t >= d->nt) {
            rc = dec_bad(d, "record with a bad template");
            break;
        }
        d->last_t[hint[i].name] = (uint32_t)t;
        rec.n = 0;
        /* room for the text and the longest numbers: only literals grow it */
        if (!tt_wbuf_reserve(&rec, d->room[t])) {
            rc = -1;
            break;
        }
        for (uint32_t k = d->top[t]; k < d->top[t + 1] && rc == 0; k++) {
            const op *o = &d->ops[k];
            if (o->type == OP_TEXT) {
                memcpy(rec.p + rec.n, d->text + o->arg, o->len);
                rec.n += o->len;
            } else if (o->type == OP_SPLIT) {
                split = rec.n;
            } else if (o->type == OP_LIT) {
                rc = dec_literal(d, o->arg, hint[i].name, &rec);
                if (rc == 0 && !tt_wbuf_reserve(&rec, d->room[t]))
                    rc = -1;
            } else if ((rc = dec_number(d, o->arg, &hint[i], prev, have_prev, &prev)) == 0) {
                rec.n += tt_fmt_i64((char *)rec.p + rec.n, prev);
                have_prev = true;
            }
        }
        if (rc)
            break;
        if (rec.oom) {
            rc = -1;
            break;
        }
        /* tt_args_add() refuses empty records (no source makes one) */
        if (rec.n == 0) {
            rc = dec_bad(d, "empty record");
            break;
        }
        total += rec.n;
        if (total > limit) {
            rc = dec_bad(d, "the records expand beyond what any trace holds");
            break;
        }
        if (tt_args_add(store, (const char *)rec.p, split, (const char *)rec.p + split,
                        rec.n - split) != i + 1)
            rc = -1;
    }
    tt_wbuf_free(&rec);
    return rc;
}

/* One chunk: n records from p[0..len) into store. */
static int dec_chunk(const unsigned char *p, size_t len, uint32_t n, const tt_argcols_hint *hint,
                     uint32_t n_names, tt_args *store, const char **what)
{
    tt_rd r = {p, p + len, false}, ids;
    dec d;
    uint64_t total = 0;
    const unsigned char *tbytes;
    int rc = -2;

    memset(&d, 0, sizeof d);
    tt_u64map_init(&d.bn.map);
    d.base = p;
    *what = "counts";
    if (tt_rd_varint(&r) != n || r.bad) {
        dec_fini(&d);
        return -2;
    }
    d.nt = tt_rd_u32(&r);
    d.nc = tt_rd_u32(&r);
    /* every template takes a length byte, every column two bytes */
    if (r.bad || d.nt > (size_t)(r.end - r.p) || d.nc > (size_t)(r.end - r.p) / 2 ||
        (n > 0 && d.nt == 0)) {
        dec_fini(&d);
        return -2;
    }
    d.c = calloc((size_t)d.nc + 1, sizeof *d.c);
    d.top = malloc(((size_t)d.nt + 1) * sizeof *d.top);
    d.room = calloc((size_t)d.nt + 1, sizeof *d.room);
    d.last_t = calloc((size_t)n_names + 1, sizeof *d.last_t);
    if (!d.c || !d.top || !d.room || !d.last_t) {
        dec_fini(&d);
        return -1;
    }
    for (uint32_t c = 0; c < d.nc; c++) {
        uint64_t km = tt_rd_varint(&r), clen = tt_rd_varint(&r);
        d.c[c].kind = (uint8_t)(km & 1);
        d.c[c].mode = (uint8_t)(km >> 1);
        if (km >> 1 >= (d.c[c].kind == CK_LIT ? LM__COUNT : PM__COUNT) || clen > len) {
            rc = dec_bad(&d, "bad column");
            goto out;
        }
        d.c[c].len = clen;
        total += clen;
        if (total > len) {
            rc = dec_bad(&d, "column sizes");
            goto out;
        }
    }
    {
        tt_rd lens = r;
        uint64_t tbytes_len = 0;
        for (uint32_t k = 0; k < d.nt && tbytes_len <= len; k++)
            tbytes_len += tt_rd_u32(&r);   /* no overflow: at most len + 2^32 */
        if (r.bad || tbytes_len > (uint64_t)(r.end - r.p) || tbytes_len > UINT32_MAX) {
            rc = dec_bad(&d, "template sizes");
            goto out;
        }
        tbytes = r.p;
        r.p += tbytes_len;
        d.text = malloc(tbytes_len ? (size_t)tbytes_len : 1);
        if (!d.text) {
            rc = -1;
            goto out;
        }
        for (uint32_t k = 0; k < d.nt; k++) {
            uint64_t tl = tt_rd_varint(&lens);
            d.top[k] = (uint32_t)d.nops;
            if ((rc = dec_template(&d, tbytes, tbytes + tl)) != 0)
                goto out;
            /* its text, and 20 bytes for each number it prints */
            for (size_t o = d.top[k]; o < d.nops; o++)
                d.room[k] += d.ops[o].type == OP_TEXT ? d.ops[o].len
                             : d.ops[o].type == OP_INT ? 20
                                                       : 0;
            tbytes += tl;
        }
        d.top[d.nt] = (uint32_t)d.nops;
    }
    /* the template of each record, then the columns */
    ids = r;
    for (uint32_t i = 0; i < n; i++)
        tt_rd_varint(&r);
    if (r.bad || total != (uint64_t)(r.end - r.p)) {
        rc = dec_bad(&d, "column sizes");
        goto out;
    }
    for (uint32_t c = 0; c < d.nc; c++) {
        d.c[c].rd.p = r.p;
        d.c[c].rd.end = r.p + d.c[c].len;
        r.p += d.c[c].len;
    }
    /* Templates make records repeat text: bound what a forged chunk can
     * make this loop write (real traces stay below 100 bytes of text per
     * byte here) */
    if ((rc = dec_records(&d, &ids, n, hint, store,
                          (uint64_t)len * TEXT_PER_BYTE + ((uint64_t)1 << 20))) != 0)
        goto out;
    for (uint32_t c = 0; c < d.nc; c++)
        if (d.c[c].rd.p != d.c[c].rd.end) {
            rc = dec_bad(&d, "column has extra data");
            goto out;
        }
    rc = 0;
out:
    if (rc == -2)
        *what = d.what ? d.what : "counts";
    dec_fini(&d);
    return rc;
}

int tt_argcols_chunks(const unsigned char *p, size_t len, uint32_t n, tt_argcols_chunk **out,
                      uint32_t *n_out, const char **what)
{
    tt_rd r = {p, p + len, false};
    tt_argcols_chunk *c;
    uint64_t records = 0, bytes = 0;
    uint32_t nc;
    size_t at;

    *what = "chunks";
    *out = NULL;
    *n_out = 0;
    if (tt_rd_varint(&r) != n)
        return -2;
    nc = tt_rd_u32(&r);
    /* a chunk holds a record at least and takes two bytes of the table */
    if (r.bad || nc > n || (n > 0 && nc == 0) || nc > (size_t)(r.end - r.p) / 2)
        return -2;
    c = calloc((size_t)nc + 1, sizeof *c);
    if (!c)
        return -1;
    for (uint32_t k = 0; k < nc; k++) {
        c[k].first = (uint32_t)records;
        c[k].n = tt_rd_u32(&r);
        c[k].len = (size_t)tt_rd_varint(&r);
        records += c[k].n;
        bytes += c[k].len;
        if (r.bad || c[k].n == 0 || records > n || bytes > (uint64_t)(r.end - r.p)) {
            free(c);
            return -2;
        }
    }
    if (records != n || bytes != (uint64_t)(r.end - r.p)) {
        free(c);
        return -2;
    }
    at = (size_t)(r.p - p);
    for (uint32_t k = 0; k < nc; k++) {
        c[k].off = at;
        at += c[k].len;
    }
    *out = c;
    *n_out = nc;
    return 0;
}

int tt_argcols_decode_chunk(const unsigned char *p, const tt_argcols_chunk *c,
                            const tt_argcols_hint *hint, uint32_t n_names, tt_args *store,
                            const char **what)
{
    int rc = dec_chunk(p + c->off, c->len, c->n, hint, n_names, store, what);
    if (rc == 0 && tt_args_seal(store))
        rc = -1;
    return rc;
}

/* Whether a needle found in a record's text is found whole in the
 * record's template: it has no digit and no byte the templates escape,
 * and it neither starts nor ends with a byte a number may hold. Then no
 * number cut out of the text (a run of number bytes with a digit) can
 * overlap it, and the rest of the text is in the template as it is. */
static bool needle_in_template(const char *nd)
{
    size_t n = strlen(nd);
    if (n == 0 || is_numch((unsigned char)nd[0]) || is_numch((unsigned char)nd[n - 1]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (is_digit((unsigned char)nd[i]) || (unsigned char)nd[i] <= MK_ESC)
            return false;
    return true;
}

int tt_argcols_chunk_templates(const unsigned char *p, const tt_argcols_chunk *c,
                               const unsigned char **t, size_t *tlen, const char **what)
{
    tt_rd r = {p + c->off, p + c->off + c->len, false};
    uint32_t nt, nc;
    uint64_t tbytes_len = 0;
    /* the chunk's head as dec_chunk() reads it, checked as far as read */
    *what = "counts";
    if (tt_rd_varint(&r) != c->n || r.bad)
        return -2;
    nt = tt_rd_u32(&r);
    nc = tt_rd_u32(&r);
    if (r.bad || nt > (size_t)(r.end - r.p) || nc > (size_t)(r.end - r.p) / 2 ||
        (c->n > 0 && nt == 0))
        return -2;
    for (uint32_t k = 0; k < nc; k++) {
        uint64_t km = tt_rd_varint(&r);
        if (km >> 1 >= ((km & 1) == CK_LIT ? LM__COUNT : PM__COUNT) ||
            tt_rd_varint(&r) > c->len || r.bad) {
            *what = "bad column";
            return -2;
        }
    }
    for (uint32_t k = 0; k < nt && tbytes_len <= c->len; k++)
        tbytes_len += tt_rd_u32(&r);
    if (r.bad || tbytes_len > (uint64_t)(r.end - r.p)) {
        *what = "template sizes";
        return -2;
    }
    *t = r.p;
    *tlen = (size_t)tbytes_len;
    return 0;
}

bool tt_argcols_templates_may_hold(const unsigned char *t, size_t tlen,
                                   const char *const *needles, size_t n_needles)
{
    /* every record's text is one of these templates filled in: a needle
     * in a text is in the templates' bytes (or cannot be told so) */
    for (size_t k = 0; k < n_needles; k++)
        if (!needle_in_template(needles[k]) || memmem(t, tlen, needles[k], strlen(needles[k])))
            return true;
    return false;
}

/* Chunks are rebuilt by several threads, each into a store of its own; the
 * first chunk goes straight into the caller's store, the others' stores
 * are appended to it in order (tt_args_append: their blocks move, they are
 * not recompressed). */
typedef struct chunk_job {
    const unsigned char    *p;
    tt_argcols_chunk       *c;
    tt_args               **store;
    int                    *rc;
    const char            **what;
    const tt_argcols_hint  *hint;
    uint32_t                n_names;
} chunk_job;

/* Chunk k (a tt_parallel_run job). */
static void chunk_run(void *ctx, size_t k)
{
    chunk_job *j = ctx;
    j->rc[k] = j->store[k] ? tt_argcols_decode_chunk(j->p, &j->c[k], j->hint + j->c[k].first,
                                                     j->n_names, j->store[k], &j->what[k])
                           : -1;
}

int tt_argcols_decode(const unsigned char *p, size_t len, uint32_t n,
                      const tt_argcols_hint *hint, uint32_t n_names, unsigned threads,
                      tt_args *store, const char **what)
{
    chunk_job j;
    uint32_t nc;
    int rc;

    memset(&j, 0, sizeof j);
    if ((rc = tt_argcols_chunks(p, len, n, &j.c, &nc, what)) != 0)
        return rc;
    j.store = calloc((size_t)nc + 1, sizeof *j.store);
    j.rc = calloc((size_t)nc + 1, sizeof *j.rc);
    j.what = calloc((size_t)nc + 1, sizeof *j.what);
    if (!j.store || !j.rc || !j.what) {
        rc = -1;
        goto out;
    }
    for (uint32_t k = 0; k < nc; k++)
        j.store[k] = k == 0 ? store : tt_args_new();
    j.p = p;
    j.hint = hint;
    j.n_names = n_names;
    if (threads == 0)
        threads = tt_parallel_cores();
    tt_parallel_run(nc, threads < MAX_THREADS ? threads : MAX_THREADS, chunk_run, &j);
    for (uint32_t k = 0; k < nc && rc == 0; k++)
        if ((rc = j.rc[k]) != 0)
            *what = j.what[k];
    /* the other chunks' records after the first's; each store is freed */
    for (uint32_t k = 1; k < nc; k++) {
        if (rc != 0)
            tt_args_free(j.store[k]);
        else if (tt_args_append(store, j.store[k]))
            rc = -1;
    }
    if (rc == 0 && tt_args_seal(store))
        rc = -1;
out:
    free(j.c);
    free(j.store);
    free(j.rc);
    free(j.what);
    return rc;
}
