/* relin.c - regular expressions matched in linear time (see relin.h).
 *
 * Three steps: a recursive-descent parser turns the pattern into a small
 * syntax tree; the tree is emitted as a Thompson NFA program (one
 * instruction per character test, SPLIT/JMP for the choices); a Pike VM
 * runs the program over the text, keeping each program position at most
 * once per text position, so no input makes it backtrack.
 */
#include "config.h"

#include "util/relin.h"
#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Larger programs are refused: {m,n} copies its operand. */
#define MAX_INSTS 100000u
#define MAX_REPEAT 255
/* Code points from here up stand for bytes that are not valid UTF-8. */
#define BAD_BYTE_BASE 0x110000u

/* ----------------------------------------------------------- classes */

enum {
    NC_ALPHA = 1 << 0,
    NC_DIGIT = 1 << 1,
    NC_ALNUM = 1 << 2,
    NC_UPPER = 1 << 3,
    NC_LOWER = 1 << 4,
    NC_SPACE = 1 << 5,
    NC_BLANK = 1 << 6,
    NC_PUNCT = 1 << 7,
    NC_PRINT = 1 << 8,
    NC_GRAPH = 1 << 9,
    NC_CNTRL = 1 << 10,
    NC_XDIGIT = 1 << 11,
    NC_WORD = 1 << 12   /* \w: alnum and '_' */
};

static const struct {
    const char *name;
    unsigned    bit;
} class_names[] = {
    {"alpha", NC_ALPHA}, {"digit", NC_DIGIT}, {"alnum", NC_ALNUM}, {"upper", NC_UPPER},
    {"lower", NC_LOWER}, {"space", NC_SPACE}, {"blank", NC_BLANK}, {"punct", NC_PUNCT},
    {"print", NC_PRINT}, {"graph", NC_GRAPH}, {"cntrl", NC_CNTRL}, {"xdigit", NC_XDIGIT},
};

typedef struct range {
    uint32_t lo, hi;
} range;

typedef struct cclass {
    range   *r;
    size_t   n, cap;
    unsigned named;    /* NC_* bits */
    bool     negated;
} cclass;

/* ASCII only, whatever the locale: the C locale's classes. */
static bool named_has(unsigned named, uint32_t c)
{
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    bool digit = c >= '0' && c <= '9';
    bool alpha = upper || lower, cntrl = c < 0x20 || c == 0x7f;
    bool print = c >= 0x20 && c < 0x7f, graph = c > 0x20 && c < 0x7f;
    if (c >= 0x80)
        return false;
    return ((named & NC_ALPHA) && alpha) || ((named & NC_DIGIT) && digit) ||
           ((named & NC_ALNUM) && (alpha || digit)) || ((named & NC_UPPER) && upper) ||
           ((named & NC_LOWER) && lower) ||
           ((named & NC_SPACE) && (c == ' ' || (c >= '\t' && c <= '\r'))) ||
           ((named & NC_BLANK) && (c == ' ' || c == '\t')) ||
           ((named & NC_PUNCT) && graph && !alpha && !digit) || ((named & NC_PRINT) && print) ||
           ((named & NC_GRAPH) && graph) || ((named & NC_CNTRL) && cntrl) ||
           ((named & NC_XDIGIT) &&
            (digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) ||
           ((named & NC_WORD) && (alpha || digit || c == '_'));
}

static bool class_has1(const cclass *k, uint32_t c)
{
    if (named_has(k->named, c))
        return true;
    for (size_t i = 0; i < k->n; i++)
        if (c >= k->r[i].lo && c <= k->r[i].hi)
            return true;
    return false;
}

static uint32_t fold_lower(uint32_t c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static uint32_t fold_upper(uint32_t c)
{
    return c >= 'a' && c <= 'z' ? c - 32 : c;
}

static bool class_has(const cclass *k, uint32_t c, bool icase)
{
    bool in = class_has1(k, c) ||
              (icase && (class_has1(k, fold_lower(c)) || class_has1(k, fold_upper(c))));
    return in != k->negated;
}

/* --------------------------------------------------------------- UTF-8 */

/* The code point at s (n > 0 bytes left); *len receives its size. */
static uint32_t utf8_next(const unsigned char *s, size_t n, size_t *len)
{
    uint32_t c = s[0], min;
    size_t k;
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        k = 1;
        c &= 0x1f;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        k = 2;
        c &= 0x0f;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        k = 3;
        c &= 0x07;
        min = 0x10000;
    } else {
        *len = 1;
        return BAD_BYTE_BASE + s[0];
    }
    if (k >= n)
        goto bad;
    for (size_t i = 1; i <= k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            goto bad;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        goto bad;
    *len = k + 1;
    return c;
bad:
    *len = 1;
    return BAD_BYTE_BASE + s[0];
}

/* ------------------------------------------------------------- syntax */

typedef enum node_kind {
    N_EMPTY,
    N_CHAR,    /* v = code point */
    N_ANY,
    N_CLASS,   /* v = class index */
    N_BOL,
    N_EOL,
    N_CAT,
    N_ALT,
    N_REP      /* a{m,n}; n < 0: unbounded (*, + are {0,}, {1,}; ? is {0,1}) */
} node_kind;

typedef struct node {
    node_kind kind;
    uint32_t  v;
    int       a, b;    /* children (node indexes) */
    int       m, n;
} node;

typedef struct parser {
    const unsigned char *p;   /* the pattern */
    size_t               at;  /* byte offset of the next character */
    bool                 icase;
    node                *nodes;
    size_t               n_nodes, cap_nodes;
    cclass              *classes;
    size_t               n_classes, cap_classes;
    tt_error            *err;
    bool                 failed;
} parser;

/* 1-based character position of byte offset `at` in the pattern. */
static size_t char_pos(const parser *ps, size_t at)
{
    size_t chars = 0;
    for (size_t i = 0; i < at; i++)
        chars += (ps->p[i] & 0xc0) != 0x80;
    return chars + 1;
}

static int fail_at(parser *ps, size_t at, tt_errcode code, const char *what)
{
    if (!ps->failed) {
        ps->failed = true;
        if (code == TT_ERR_NOMEM)
            tt_error_set(ps->err, code, "out of memory compiling the expression");
        else
            tt_error_set(ps->err, code, "at character %zu: %s", char_pos(ps, at), what);
    }
    return -1;
}

static int new_node(parser *ps, node_kind kind, uint32_t v, int a, int b)
{
    if (ps->failed)
        return -1;
    if (tt_grow_one((void **)&ps->nodes, &ps->cap_nodes, ps->n_nodes, sizeof *ps->nodes))
        return fail_at(ps, ps->at, TT_ERR_NOMEM, "");
    ps->nodes[ps->n_nodes] = (node){kind, v, a, b, 0, 0};
    return (int)ps->n_nodes++;
}

static int new_class(parser *ps)
{
    if (tt_grow_one((void **)&ps->classes, &ps->cap_classes, ps->n_classes, sizeof *ps->classes))
        return fail_at(ps, ps->at, TT_ERR_NOMEM, "");
    memset(&ps->classes[ps->n_classes], 0, sizeof *ps->classes);
    return (int)ps->n_classes++;
}

static int class_add(parser *ps, cclass *k, uint32_t lo, uint32_t hi)
{
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 4;
        range *nr = realloc(k->r, cap * sizeof *nr);
        if (!nr)
            return fail_at(ps, ps->at, TT_ERR_NOMEM, "");
        k->r = nr;
        k->cap = cap;
    }
    k->r[k->n++] = (range){lo, hi};
    return 0;
}

static uint32_t take(parser *ps)
{
    size_t len;
    uint32_t c = utf8_next(ps->p + ps->at, strlen((const char *)ps->p + ps->at), &len);
    ps->at += len;
    return c;
}

static int parse_alt(parser *ps);

/* A bracket expression; ps->at is just past '['. */
static int parse_bracket(parser *ps)
{
    size_t open = ps->at - 1;
    int ci = new_class(ps);
    bool first = true;
    cclass *k;
    if (ci < 0)
        return -1;
    k = &ps->classes[ci];
    if (ps->p[ps->at] == '^') {
        k->negated = true;
        ps->at++;
    }
    for (;;) {
        size_t here = ps->at;
        uint32_t lo, hi;
        unsigned char c = ps->p[here];
        if (c == '\0')
            return fail_at(ps, open, TT_ERR_USAGE, "unmatched [");
        if (c == ']' && !first) {
            ps->at++;
            break;
        }
        first = false;
        if (c == '[' && ps->p[here + 1] == ':') {
            const char *name = (const char *)ps->p + here + 2, *end = strstr(name, ":]");
            bool known = false;
            for (size_t i = 0; end && i < sizeof class_names / sizeof class_names[0]; i++)
                if (strlen(class_names[i].name) == (size_t)(end - name) &&
                    strncmp(class_names[i].name, name, (size_t)(end - name)) == 0) {
                    k->named |= class_names[i].bit;
                    known = true;
                }
            if (!known)
                return fail_at(ps, here, TT_ERR_USAGE, "unknown character class");
            ps->at = (size_t)(end + 2 - (const char *)ps->p);
            continue;
        }
        if (c == '[' && (ps->p[here + 1] == '.' || ps->p[here + 1] == '='))
            return fail_at(ps, here, TT_ERR_USAGE,
                           "collating elements ([. .] and [= =]) are not supported");
        lo = hi = take(ps);
        if (ps->p[ps->at] == '-' && ps->p[ps->at + 1] != ']' && ps->p[ps->at + 1] != '\0') {
            ps->at++;
            if (ps->p[ps->at] == '[' &&
                (ps->p[ps->at + 1] == ':' || ps->p[ps->at + 1] == '.' || ps->p[ps->at + 1] == '='))
                return fail_at(ps, ps->at, TT_ERR_USAGE, "a class cannot end a range");
            hi = take(ps);
            if (hi < lo)
                return fail_at(ps, here, TT_ERR_USAGE, "invalid range (its end is before its start)");
        }
        if (class_add(ps, &ps->classes[ci], lo, hi))
            return -1;
        k = &ps->classes[ci];
    }
    return new_node(ps, N_CLASS, (uint32_t)ci, -1, -1);
}

/* A class for \w \W \s \S. */
static int escape_class(parser *ps, unsigned named, bool negated)
{
    int ci = new_class(ps);
    if (ci < 0)
        return -1;
    ps->classes[ci].named = named;
    ps->classes[ci].negated = negated;
    return new_node(ps, N_CLASS, (uint32_t)ci, -1, -1);
}

static int parse_atom(parser *ps)
{
    size_t here = ps->at;
    unsigned char c = ps->p[here];
    switch (c) {
    case '(': {
        int inner;
        ps->at++;
        if (ps->p[ps->at] == ')') {
            ps->at++;
            return new_node(ps, N_EMPTY, 0, -1, -1);
        }
        inner = parse_alt(ps);
        if (inner < 0)
            return -1;
        if (ps->p[ps->at] != ')')
            return fail_at(ps, here, TT_ERR_USAGE, "unmatched (");
        ps->at++;
        return inner;
    }
    case '*':
    case '+':
    case '?':
    case '{': return fail_at(ps, here, TT_ERR_USAGE, "nothing to repeat before this");
    case '[': ps->at++; return parse_bracket(ps);
    case '.': ps->at++; return new_node(ps, N_ANY, 0, -1, -1);
    case '^': ps->at++; return new_node(ps, N_BOL, 0, -1, -1);
    case '$': ps->at++; return new_node(ps, N_EOL, 0, -1, -1);
    case '\\': {
        unsigned char e = ps->p[here + 1];
        if (e == '\0')
            return fail_at(ps, here, TT_ERR_USAGE, "trailing backslash");
        if (e >= '1' && e <= '9')
            return fail_at(ps, here, TT_ERR_USAGE,
                           "back-references (\\1 ... \\9) are not supported");
        if (strchr("bB<>`'", e))
            return fail_at(ps, here, TT_ERR_USAGE,
                           "word boundaries and buffer anchors are not supported");
        ps->at += 2;
        switch (e) {
        case 'w': return escape_class(ps, NC_WORD, false);
        case 'W': return escape_class(ps, NC_WORD, true);
        case 's': return escape_class(ps, NC_SPACE, false);
        case 'S': return escape_class(ps, NC_SPACE, true);
        default: break;
        }
        ps->at--;
        return new_node(ps, N_CHAR, take(ps), -1, -1);
    }
    default: return new_node(ps, N_CHAR, take(ps), -1, -1);
    }
}

/* A decimal count of a {m,n} bound, or -1 when there is none. */
static int parse_count(parser *ps)
{
    int v = 0;
    if (ps->p[ps->at] < '0' || ps->p[ps->at] > '9')
        return -1;
    while (ps->p[ps->at] >= '0' && ps->p[ps->at] <= '9') {
        if (v <= MAX_REPEAT)
            v = v * 10 + (ps->p[ps->at] - '0');
        ps->at++;
    }
    return v;
}

static int parse_repeat(parser *ps)
{
    int atom = parse_atom(ps);
    while (atom >= 0) {
        size_t here = ps->at;
        int m, n;
        switch (ps->p[here]) {
        case '*': m = 0; n = -1; ps->at++; break;
        case '+': m = 1; n = -1; ps->at++; break;
        case '?': m = 0; n = 1; ps->at++; break;
        case '{':
            ps->at++;
            m = parse_count(ps);
            if (m < 0)
                return fail_at(ps, here, TT_ERR_USAGE, "expected a count after {");
            n = m;
            if (ps->p[ps->at] == ',') {
                ps->at++;
                n = parse_count(ps);   /* -1: no upper bound */
            }
            if (ps->p[ps->at] != '}')
                return fail_at(ps, here, TT_ERR_USAGE, "expected } to close the count");
            ps->at++;
            if (m > MAX_REPEAT || n > MAX_REPEAT)
                return fail_at(ps, here, TT_ERR_USAGE, "a count above 255");
            if (n >= 0 && n < m)
                return fail_at(ps, here, TT_ERR_USAGE, "a count {m,n} with n below m");
            break;
        default: return atom;
        }
        atom = new_node(ps, N_REP, 0, atom, -1);
        if (atom >= 0) {
            ps->nodes[atom].m = m;
            ps->nodes[atom].n = n;
        }
    }
    return atom;
}

static int parse_concat(parser *ps)
{
    int left = -1;
    while (ps->p[ps->at] != '\0' && ps->p[ps->at] != '|' && ps->p[ps->at] != ')') {
        int right = parse_repeat(ps);
        if (right < 0)
            return -1;
        left = left < 0 ? right : new_node(ps, N_CAT, 0, left, right);
        if (left < 0)
            return -1;
    }
    return left < 0 ? new_node(ps, N_EMPTY, 0, -1, -1) : left;
}

static int parse_alt(parser *ps)
{
    int left = parse_concat(ps);
    while (left >= 0 && ps->p[ps->at] == '|') {
        int right;
        ps->at++;
        right = parse_concat(ps);
        if (right < 0)
            return -1;
        left = new_node(ps, N_ALT, 0, left, right);
    }
    return left;
}

/* ------------------------------------------------------------ program */

typedef enum op {
    I_CHAR,    /* arg = code point (folded when icase) */
    I_ANY,
    I_CLASS,   /* arg = class index */
    I_BOL,
    I_EOL,
    I_SPLIT,   /* continue at x and at y */
    I_JMP,     /* continue at x */
    I_MATCH
} op;

typedef struct inst {
    uint8_t  op;
    uint32_t x, y, arg;
} inst;

struct tt_relin {
    inst     *prog;
    uint32_t  n;
    cclass   *classes;
    size_t    n_classes;
    bool      icase;
    /* matching scratch: two thread lists, a visit stamp per instruction
     * and a stack for following SPLIT/JMP */
    uint32_t *cur, *next, *seen, *stack;
    uint32_t  gen;
};

/* Instructions node i emits (saturating far above MAX_INSTS). */
static uint64_t prog_size(const node *nodes, int i)
{
    const node *nd = &nodes[i];
    uint64_t a, s;
    switch (nd->kind) {
    case N_EMPTY: return 0;
    case N_CAT: s = prog_size(nodes, nd->a) + prog_size(nodes, nd->b); break;
    case N_ALT: s = prog_size(nodes, nd->a) + prog_size(nodes, nd->b) + 2; break;
    case N_REP:
        a = prog_size(nodes, nd->a);
        s = (uint64_t)nd->m * a + (nd->n < 0 ? a + 2 : (uint64_t)(nd->n - nd->m) * (a + 1));
        break;
    default: return 1;
    }
    return s > 4 * (uint64_t)MAX_INSTS ? 4 * (uint64_t)MAX_INSTS : s;
}

static uint32_t emit_inst(tt_relin *re, op o, uint32_t x, uint32_t y, uint32_t arg)
{
    re->prog[re->n] = (inst){(uint8_t)o, x, y, arg};
    return re->n++;
}

static void emit(tt_relin *re, const node *nodes, int i)
{
    const node *nd = &nodes[i];
    uint32_t split, jmp;
    switch (nd->kind) {
    case N_EMPTY: break;
    case N_CHAR: emit_inst(re, I_CHAR, 0, 0, re->icase ? fold_lower(nd->v) : nd->v); break;
    case N_ANY: emit_inst(re, I_ANY, 0, 0, 0); break;
    case N_CLASS: emit_inst(re, I_CLASS, 0, 0, nd->v); break;
    case N_BOL: emit_inst(re, I_BOL, 0, 0, 0); break;
    case N_EOL: emit_inst(re, I_EOL, 0, 0, 0); break;
    case N_CAT:
        emit(re, nodes, nd->a);
        emit(re, nodes, nd->b);
        break;
    case N_ALT:
        split = emit_inst(re, I_SPLIT, 0, 0, 0);
        re->prog[split].x = re->n;
        emit(re, nodes, nd->a);
        jmp = emit_inst(re, I_JMP, 0, 0, 0);
        re->prog[split].y = re->n;
        emit(re, nodes, nd->b);
        re->prog[jmp].x = re->n;
        break;
    case N_REP:
        for (int k = 0; k < nd->m; k++)
            emit(re, nodes, nd->a);
        if (nd->n < 0) {
            /* L: SPLIT body, out; body; JMP L */
            split = emit_inst(re, I_SPLIT, 0, 0, 0);
            re->prog[split].x = re->n;
            emit(re, nodes, nd->a);
            emit_inst(re, I_JMP, split, 0, 0);
            re->prog[split].y = re->n;
        } else {
            /* a{0,k} matches what (a?){k} does */
            for (int k = nd->m; k < nd->n; k++) {
                split = emit_inst(re, I_SPLIT, 0, 0, 0);
                re->prog[split].x = re->n;
                emit(re, nodes, nd->a);
                re->prog[split].y = re->n;
            }
        }
        break;
    }
}

void tt_relin_free(tt_relin *re)
{
    if (!re)
        return;
    for (size_t i = 0; i < re->n_classes; i++)
        free(re->classes[i].r);
    free(re->classes);
    free(re->prog);
    free(re->cur);
    free(re->next);
    free(re->seen);
    free(re->stack);
    free(re);
}

tt_relin *tt_relin_compile(const char *pattern, unsigned flags, tt_error *err)
{
    parser ps;
    tt_relin *re = NULL;
    uint64_t size;
    int root;
    memset(&ps, 0, sizeof ps);
    ps.p = (const unsigned char *)pattern;
    ps.icase = (flags & TT_RELIN_ICASE) != 0;
    ps.err = err;
    root = parse_alt(&ps);
    if (root >= 0 && ps.p[ps.at] == ')')
        root = fail_at(&ps, ps.at, TT_ERR_USAGE, "unmatched )");
    if (root >= 0) {
        size = prog_size(ps.nodes, root) + 1;
        if (size > MAX_INSTS)
            root = fail_at(&ps, 0, TT_ERR_USAGE, "the expression is too large (counted repeats?)");
    }
    if (root >= 0) {
        re = calloc(1, sizeof *re);
        if (re) {
            re->icase = ps.icase;
            re->classes = ps.classes;
            re->n_classes = ps.n_classes;
            ps.classes = NULL;
            ps.n_classes = 0;
            re->prog = malloc((size_t)size * sizeof *re->prog);
            re->cur = malloc((size_t)size * sizeof *re->cur);
            re->next = malloc((size_t)size * sizeof *re->next);
            re->seen = calloc((size_t)size, sizeof *re->seen);
            re->stack = malloc((2 * (size_t)size + 2) * sizeof *re->stack);
        }
        if (!re || !re->prog || !re->cur || !re->next || !re->seen || !re->stack) {
            tt_relin_free(re);
            re = NULL;
            fail_at(&ps, 0, TT_ERR_NOMEM, "");
        } else {
            emit(re, ps.nodes, root);
            emit_inst(re, I_MATCH, 0, 0, 0);
        }
    }
    for (size_t i = 0; i < ps.n_classes; i++)
        free(ps.classes[i].r);
    free(ps.classes);
    free(ps.nodes);
    return re;
}

/* Add the thread at pc to list (*n entries), following SPLIT, JMP and the
 * anchors. Returns true when it reaches MATCH. */
static bool add_thread(tt_relin *re, uint32_t *list, uint32_t *n, uint32_t pc, bool at_start,
                       bool at_end)
{
    uint32_t sp = 0;
    re->stack[sp++] = pc;
    while (sp > 0) {
        const inst *in;
        pc = re->stack[--sp];
        if (re->seen[pc] == re->gen)
            continue;
        re->seen[pc] = re->gen;
        in = &re->prog[pc];
        switch ((op)in->op) {
        case I_MATCH: return true;
        case I_JMP: re->stack[sp++] = in->x; break;
        case I_SPLIT:
            re->stack[sp++] = in->y;
            re->stack[sp++] = in->x;
            break;
        case I_BOL:
            if (at_start)
                re->stack[sp++] = pc + 1;
            break;
        case I_EOL:
            if (at_end)
                re->stack[sp++] = pc + 1;
            break;
        default: list[(*n)++] = pc; break;
        }
    }
    return false;
}

static void next_gen(tt_relin *re)
{
    if (++re->gen == 0) {
        memset(re->seen, 0, (size_t)re->n * sizeof *re->seen);
        re->gen = 1;
    }
}

bool tt_relin_match(tt_relin *re, const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    uint32_t nc = 0, nn;
    size_t pos = 0;
    next_gen(re);
    for (;;) {
        size_t len;
        uint32_t c;
        uint32_t *tmp;
        /* unanchored: a new thread starts at every position */
        if (add_thread(re, re->cur, &nc, 0, pos == 0, pos == n))
            return true;
        if (pos == n)
            return false;
        c = utf8_next(s + pos, n - pos, &len);
        if (re->icase)
            c = fold_lower(c);
        next_gen(re);
        nn = 0;
        for (uint32_t i = 0; i < nc; i++) {
            const inst *in = &re->prog[re->cur[i]];
            bool step;
            switch ((op)in->op) {
            case I_CHAR: step = in->arg == c; break;
            case I_ANY: step = true; break;
            case I_CLASS: step = class_has(&re->classes[in->arg], c, re->icase); break;
            default: step = false; break;
            }
            if (step && add_thread(re, re->next, &nn, re->cur[i] + 1, false, pos + len == n))
                return true;
        }
        tmp = re->cur;
        re->cur = re->next;
        re->next = tmp;
        nc = nn;
        pos += len;
    }
}
