/* term.c - terminal ownership: curses, input, signals (see term.h). */
#include "config.h"

#include "tui/term.h"

#include "tui/grid.h"
#include "tui/jobstop.h"
#include "tui/theme.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* Key code we bind to the SGR mouse prefix ESC [ <. */
#define KEY_SGR_MOUSE (KEY_MAX + 1)

#define MOUSE_ON "\033[?1000h\033[?1002h\033[?1006h"
#define MOUSE_OFF "\033[?1006l\033[?1002l\033[?1000l"

/* ------------------------------------------------------ signal handling */

static volatile sig_atomic_t quit_sig;    /* SIGINT/SIGTERM/SIGHUP received */
static volatile sig_atomic_t stop_req;    /* SIGTSTP received */
static volatile sig_atomic_t cont_seen;   /* SIGCONT: repaint everything */
static volatile sig_atomic_t winch_seen;  /* SIGWINCH: the terminal's size changed */
static int wake_pipe[2] = {-1, -1};
static struct termios saved_tty;
static volatile sig_atomic_t have_saved_tty;
static char reset_seq[512];
static volatile sig_atomic_t reset_len;

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};
/* Signals whose default action ends the process (most with a core dump):
 * the faults, abort(), Ctrl-\ (SIGQUIT), a breakpoint or a bad system
 * call, and the CPU-time and file-size limits. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,  SIGABRT,
                                    SIGQUIT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ};
static struct sigaction old_quit[N_OF(quit_signals)], old_fatal[N_OF(fatal_signals)], old_tstp,
    old_cont, old_winch;

static void wake(void)
{
    int e = errno;
    if (wake_pipe[1] >= 0) {
        ssize_t r = write(wake_pipe[1], "x", 1);
        (void)r;   /* a full pipe already wakes the loop */
    }
    errno = e;
}

/* When the loop last stopped waiting and started working on input or a
 * frame (CLOCK_MONOTONIC seconds), or 0 while it waits. The loop checks
 * quit_sig between inputs; work that takes long (a search over a huge
 * trace) must not keep SIGTERM or Ctrl-C waiting. */
static volatile sig_atomic_t busy_since;

#define BUSY_QUIT_S 2

static sig_atomic_t mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);   /* async-signal-safe */
    return (sig_atomic_t)(ts.tv_sec > 0 ? ts.tv_sec : 1);
}

static void restore_tty_now(void);

static void on_quit(int sig)
{
    bool again = quit_sig != 0;
    /* Ctrl-C during a `:sql` query stops the query, not the view */
    if (sig == SIGINT && tt_jobstop_sigint())
        return;
    quit_sig = sig;
    wake();
    /* the loop has been working for a while, or has not acted on an
     * earlier quit: restore the terminal here and die of the signal */
    if (busy_since && (again || mono_s() - busy_since >= BUSY_QUIT_S)) {
        restore_tty_now();
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

static void on_tstp(int sig)
{
    (void)sig;
    stop_req = 1;
    wake();
}

/* Continued after a stop we did not arrange (SIGSTOP from outside): the
 * screen may hold anything by now. */
static void on_cont(int sig)
{
    (void)sig;
    cont_seen = 1;
    wake();
}

/* The terminal was resized. Ours, not curses' handler: curses' only sets
 * a flag its next read looks at, so a SIGWINCH arriving while a frame was
 * drawn, after the last read and before the loop's poll(), was seen only
 * at the next key press. This one wakes the poll through the pipe, and the
 * loop resizes curses itself (sync_size). */
static void on_winch(int sig)
{
    (void)sig;
    winch_seen = 1;
    wake();
}

/* Leave the terminal usable: async-signal-safe, write() and tcsetattr()
 * only. */
static void restore_tty_now(void)
{
    if (reset_len > 0) {
        ssize_t r = write(STDOUT_FILENO, reset_seq, (size_t)reset_len);
        (void)r;
    }
    if (have_saved_tty)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tty);
}

/* Restore the terminal, then hand the signal to whoever handled it before
 * us: a sanitizer runtime installs its SIGSEGV/SIGBUS/SIGFPE handlers
 * before main, and its report (now on the normal screen, readable) is the
 * whole point of a sanitizer build. Without one, die of sig. */
static void on_fatal(int sig, siginfo_t *info, void *ctx)
{
    restore_tty_now();
    for (size_t i = 0; i < N_OF(fatal_signals); i++) {
        const struct sigaction *old = &old_fatal[i];
        if (fatal_signals[i] != sig)
            continue;
        if (old->sa_flags & SA_SIGINFO) {
            if (old->sa_sigaction) {
                sigaction(sig, old, NULL);
                old->sa_sigaction(sig, info, ctx);
            }
        } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
            sigaction(sig, old, NULL);
            old->sa_handler(sig);
        }
    }
    /* no earlier handler, or it returned */
    signal(sig, SIG_DFL);
    raise(sig);
}

#if defined(__SANITIZE_ADDRESS__)
#define TT_HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TT_HAVE_ASAN 1
#endif
#endif

#ifdef TT_HAVE_ASAN
/* AddressSanitizer calls this as it finds an error, before it prints the
 * report: put the terminal back first, so the report lands on the normal
 * screen and survives (it then exits without a signal we would see). */
void __asan_on_error(void);
void __asan_on_error(void)
{
    restore_tty_now();
}
#endif

/* A fault the program cannot ignore: SIG_IGN does not stop it killing. */
static bool is_fault(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}

static void install(int sig, void (*fn)(int), void (*fn_info)(int, siginfo_t *, void *),
                    struct sigaction *old, int flags)
{
    struct sigaction sa;
    sigaction(sig, NULL, old);
    if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_IGN && !(fn_info && is_fault(sig)))
        return;   /* e.g. nohup, or SIGQUIT in a background job: keep ignoring */
    memset(&sa, 0, sizeof sa);
    if (fn_info) {
        sa.sa_sigaction = fn_info;
        flags |= SA_SIGINFO;
    } else {
        sa.sa_handler = fn;
    }
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a signal interrupts the blocking poll() */
    sa.sa_flags = flags;
    sigaction(sig, &sa, NULL);
}

static void signals_install(void)
{
    for (size_t i = 0; i < N_OF(quit_signals); i++)
        install(quit_signals[i], on_quit, NULL, &old_quit[i], 0);
    install(SIGTSTP, on_tstp, NULL, &old_tstp, 0);
    install(SIGCONT, on_cont, NULL, &old_cont, 0);
    install(SIGWINCH, on_winch, NULL, &old_winch, 0);
    for (size_t i = 0; i < N_OF(fatal_signals); i++)
        install(fatal_signals[i], NULL, on_fatal, &old_fatal[i], SA_RESETHAND | SA_NODEFER);
}

static void signals_restore(void)
{
    for (size_t i = 0; i < N_OF(quit_signals); i++)
        sigaction(quit_signals[i], &old_quit[i], NULL);
    sigaction(SIGTSTP, &old_tstp, NULL);
    sigaction(SIGCONT, &old_cont, NULL);
    sigaction(SIGWINCH, &old_winch, NULL);
    for (size_t i = 0; i < N_OF(fatal_signals); i++)
        sigaction(fatal_signals[i], &old_fatal[i], NULL);
}

static void append_cap(const char *name)
{
    char *s = tigetstr(name);
    size_t n, len = (size_t)reset_len;
    if (!s || s == (char *)-1)
        return;
    n = strlen(s);
    /* only plain strings: capabilities with padding or parameters are
     * not usable without tputs */
    if (strchr(s, '$') || strchr(s, '%') || len + n >= sizeof reset_seq)
        return;
    memcpy(reset_seq + len, s, n);
    reset_len = (sig_atomic_t)(len + n);
}

/* The sequences a crash handler writes to leave the terminal usable. */
static void reset_seq_build(bool mouse)
{
    reset_len = 0;
    if (mouse) {
        memcpy(reset_seq, MOUSE_OFF, sizeof MOUSE_OFF - 1);
        reset_len = (sig_atomic_t)(sizeof MOUSE_OFF - 1);
    }
    append_cap("sgr0");
    append_cap("cnorm");
    append_cap("rmkx");
    append_cap("rmcup");
}

/* ------------------------------------------------------------- colors */

typedef struct session {
    SCREEN        *scr;
    tt_color_depth depth;
    bool           default_colors;
    bool           mouse;
    short          n_pairs;
    short          pair_fg[256], pair_bg[256];
    /* (role, color) -> attributes and pair, computed on first use */
    bool           style_done[TT_R__COUNT][TT_PALETTE_SIZE + 1];
    attr_t         style_attr[TT_R__COUNT][TT_PALETTE_SIZE + 1];
    short          style_pair[TT_R__COUNT][TT_PALETTE_SIZE + 1];
    tt_grid       *shown;   /* what the screen holds, to send only changes */
} session;

static void colors_init(session *t)
{
    const char *nc = getenv("NO_COLOR");
    t->depth = TT_COLORS_NONE;
    if ((nc && *nc) || !has_colors())
        return;
    if (start_color() != OK)
        return;
    t->default_colors = use_default_colors() == OK;
    if (COLORS >= 256 && COLOR_PAIRS >= 64)
        t->depth = TT_COLORS_256;
    else if (COLORS >= 8 && COLOR_PAIRS >= 16)
        t->depth = TT_COLORS_8;
}

static short pair_for(session *t, short fg, short bg)
{
    if (!t->default_colors) {
        if (fg < 0)
            fg = COLOR_WHITE;
        if (bg < 0)
            bg = COLOR_BLACK;
    }
    if (fg < 0 && bg < 0)
        return 0;
    for (short i = 1; i <= t->n_pairs; i++)
        if (t->pair_fg[i] == fg && t->pair_bg[i] == bg)
            return i;
    if (t->n_pairs + 1 >= 256 || t->n_pairs + 1 >= COLOR_PAIRS)
        return 0;
    t->n_pairs++;
    init_pair(t->n_pairs, fg, bg);
    t->pair_fg[t->n_pairs] = fg;
    t->pair_bg[t->n_pairs] = bg;
    return t->n_pairs;
}

static void style_of(session *t, uint8_t role, uint8_t color, attr_t *attr, short *pair)
{
    unsigned r = role < TT_R__COUNT ? role : 0, c = color <= TT_PALETTE_SIZE ? color : 0;
    if (!t->style_done[r][c]) {
        tt_style s = tt_theme_style(t->depth, (tt_role)r, (uint8_t)c);
        attr_t a = A_NORMAL;
        if (s.attrs & TT_A_BOLD)
            a |= A_BOLD;
        if (s.attrs & TT_A_REVERSE)
            a |= A_REVERSE;
        if (s.attrs & TT_A_UNDERLINE)
            a |= A_UNDERLINE;
        if (s.attrs & TT_A_DIM)
            a |= A_DIM;
        t->style_attr[r][c] = a;
        t->style_pair[r][c] = t->depth == TT_COLORS_NONE ? 0 : pair_for(t, s.fg, s.bg);
        t->style_done[r][c] = true;
    }
    *attr = t->style_attr[r][c];
    *pair = t->style_pair[r][c];
}

/* ------------------------------------------------------------- output */

static void blit(session *t, const tt_grid *g, bool full)
{
    bool same_size = t->shown && t->shown->cols == g->cols && t->shown->rows == g->rows;
    if (!same_size || full) {
        if (!t->shown)
            t->shown = tt_grid_new(g->cols, g->rows);
        else
            tt_grid_resize(t->shown, g->cols, g->rows);
        if (full)
            clearok(curscr, TRUE);
        same_size = false;
    }
    for (int y = 0; y < g->rows && y < LINES; y++) {
        for (int x = 0; x < g->cols && x < COLS; x++) {
            const tt_cell *c = &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
            tt_cell *o = t->shown ? tt_grid_at(t->shown, x, y) : NULL;
            cchar_t cc;
            wchar_t wc[2];
            attr_t attr;
            short pair;
            if (c->width == 0)
                continue;
            if (same_size && o && o->cp == c->cp && o->role == c->role && o->color == c->color &&
                o->width == c->width)
                continue;
            style_of(t, c->role, c->color, &attr, &pair);
            wc[0] = (wchar_t)c->cp;
            wc[1] = L'\0';
            if (c->width == 2 && x + 1 >= COLS)
                wc[0] = L' ';
            setcchar(&cc, wc, attr, pair, NULL);
            mvwadd_wch(stdscr, y, x, &cc);
        }
    }
    if (t->shown && t->shown->cols == g->cols && t->shown->rows == g->rows)
        memcpy(t->shown->cells, g->cells, (size_t)g->cols * (size_t)g->rows * sizeof *g->cells);
    wnoutrefresh(stdscr);
    doupdate();
}

static void mouse_mode(session *t, bool on)
{
    if (!t->mouse)
        return;
    fflush(stdout);
    {
        const char *s = on ? MOUSE_ON : MOUSE_OFF;
        ssize_t r = write(STDOUT_FILENO, s, strlen(s));
        (void)r;
    }
}

/* ------------------------------------------------------------- input */

/* Read the rest of an SGR mouse report "b;x;y" + 'M' or 'm' after the
 * prefix. Returns true with *in filled for a report we use. */
static bool read_sgr(tt_input *in)
{
    int v[3] = {0, 0, 0}, k = 0, final = 0;
    bool ok = false;
    wtimeout(stdscr, 50);
    for (int i = 0; i < 32; i++) {
        wint_t ch;
        int rc = wget_wch(stdscr, &ch);
        if (rc == ERR || rc == KEY_CODE_YES)
            break;
        if (ch == '<' && i == 0)
            continue;   /* the prefix arrived without the key binding */
        if (ch >= '0' && ch <= '9') {
            if (v[k] < 100000)
                v[k] = v[k] * 10 + (int)(ch - '0');
        } else if (ch == ';' && k < 2) {
            k++;
        } else if ((ch == 'M' || ch == 'm') && k == 2) {
            final = (int)ch;
            ok = true;
            break;
        } else {
            break;
        }
    }
    nodelay(stdscr, TRUE);
    if (!ok)
        return false;
    memset(in, 0, sizeof *in);
    in->kind = TT_IN_MOUSE;
    in->x = v[1] - 1;
    in->y = v[2] - 1;
    if (v[0] & 4)
        in->mods |= TT_MOD_SHIFT;
    if (v[0] & 8)
        in->mods |= TT_MOD_META;
    if (v[0] & 16)
        in->mods |= TT_MOD_CTRL;
    if (v[0] & 64) {
        static const uint8_t wheel[4] = {TT_MOUSE_WHEEL_UP, TT_MOUSE_WHEEL_DOWN,
                                         TT_MOUSE_WHEEL_LEFT, TT_MOUSE_WHEEL_RIGHT};
        if (final == 'm')
            return false;
        in->action = wheel[v[0] & 3];
        return true;
    }
    in->button = (uint8_t)(v[0] & 3);
    if (in->button == 3)
        return false;
    if (v[0] & 32)
        in->action = TT_MOUSE_DRAG;
    else
        in->action = final == 'M' ? TT_MOUSE_PRESS : TT_MOUSE_RELEASE;
    return true;
}

/* An ESC that curses did not decode as a key. What follows decides:
 * "[<" starts an SGR mouse report; "[" and a parameter byte starts some
 * other control sequence, dropped whole; anything else (or nothing) means
 * the Esc key was pressed and the next bytes are keys of their own, even
 * when they arrive in the same read (a quick typist, a slow link). */
static bool read_escape(tt_input *in)
{
    wint_t c1, c2;
    int rc, rc2;
    wtimeout(stdscr, 0);
    rc = wget_wch(stdscr, &c1);
    if (rc == OK && c1 == '[') {
        rc2 = wget_wch(stdscr, &c2);
        if (rc2 == OK && c2 == '<')
            return read_sgr(in);
        if (rc2 == OK && c2 >= 0x20 && c2 <= 0x3f) {
            while (rc2 == OK && !(c2 >= 0x40 && c2 <= 0x7e))
                rc2 = wget_wch(stdscr, &c2);
            nodelay(stdscr, TRUE);
            return false;
        }
        /* Esc, then '[' typed as a key: give both back, newest first */
        if (rc2 == OK)
            unget_wch(c2);
        else if (rc2 == KEY_CODE_YES)
            ungetch((int)c2);
        unget_wch(c1);
    } else if (rc == OK) {
        unget_wch(c1);
    } else if (rc == KEY_CODE_YES) {
        ungetch((int)c1);
    }
    nodelay(stdscr, TRUE);
    *in = tt_input_key(TT_KEY_ESC);
    return true;
}

static bool decode_key(int rc, wint_t ch, tt_input *in)
{
    if (rc == KEY_CODE_YES) {
        uint32_t k;
        switch (ch) {
        case KEY_SGR_MOUSE: return read_sgr(in);
        case KEY_RESIZE:
            memset(in, 0, sizeof *in);
            in->kind = TT_IN_RESIZE;
            in->x = COLS;
            in->y = LINES;
            return true;
        case KEY_UP: k = TT_KEY_UP; break;
        case KEY_DOWN: k = TT_KEY_DOWN; break;
        case KEY_LEFT: k = TT_KEY_LEFT; break;
        case KEY_RIGHT: k = TT_KEY_RIGHT; break;
        case KEY_SR: k = TT_KEY_S_UP; break;
        case KEY_SF: k = TT_KEY_S_DOWN; break;
        case KEY_SLEFT: k = TT_KEY_S_LEFT; break;
        case KEY_SRIGHT: k = TT_KEY_S_RIGHT; break;
        case KEY_HOME: k = TT_KEY_HOME; break;
        case KEY_END: k = TT_KEY_END; break;
        case KEY_PPAGE: k = TT_KEY_PGUP; break;
        case KEY_NPAGE: k = TT_KEY_PGDN; break;
        case KEY_DC: k = TT_KEY_DEL; break;
        case KEY_BACKSPACE: k = TT_KEY_BACKSPACE; break;
        case KEY_ENTER: k = TT_KEY_ENTER; break;
        case KEY_BTAB: k = TT_KEY_BTAB; break;
        default: return false;
        }
        *in = tt_input_key(k);
        return true;
    }
    switch (ch) {
    case '\r':
    case '\n': *in = tt_input_key(TT_KEY_ENTER); return true;
    case '\t': *in = tt_input_key(TT_KEY_TAB); return true;
    case 0x7f:
    case 0x08: *in = tt_input_key(TT_KEY_BACKSPACE); return true;
    case 0x1b: return read_escape(in);
    default: *in = tt_input_key((uint32_t)ch); return true;
    }
}

/* ------------------------------------------------------------- session */

static int term_open(session *t, tt_error *err)
{
    const char *tn = getenv("TERM");
    char *kmous;
    if (tcgetattr(STDIN_FILENO, &saved_tty) == 0)
        have_saved_tty = 1;
    if (pipe(wake_pipe) == 0) {
        for (int i = 0; i < 2; i++) {
            fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        }
    } else {
        wake_pipe[0] = wake_pipe[1] = -1;
    }
    quit_sig = 0;
    stop_req = 0;
    cont_seen = 0;
    /* before newterm, so curses leaves these signals to us */
    signals_install();
    t->scr = newterm(NULL, stdout, stdin);
    if (!t->scr && tn) {
        /* A login node's terminfo may lack the entry the client's tmux or
         * terminal announces (tmux-256color is missing from older
         * ncurses-base): fall back to the closest common one. */
        static const char *const fallback[] = {"screen-256color", "xterm-256color", "xterm",
                                               NULL};
        size_t first = (strncmp(tn, "tmux", 4) == 0 || strncmp(tn, "screen", 6) == 0) ? 0
                       : strstr(tn, "256") ? 1 : 2;
        for (size_t i = first; fallback[i] && !t->scr; i++)
            t->scr = newterm(fallback[i], stdout, stdin);
    }
    if (!t->scr) {
        signals_restore();
        return tt_error_set(err, TT_ERR_UNSUPPORTED,
                            "cannot use the terminal (TERM=%s): no terminfo entry?",
                            tn ? tn : "(unset)");
    }
    set_term(t->scr);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    colors_init(t);
    /* mouse: only where the terminal describes one; we speak SGR 1006
     * ourselves so large terminals and drags work everywhere */
    kmous = tigetstr("kmous");
    t->mouse = kmous && kmous != (char *)-1;
    define_key("\033[<", 0);
    define_key("\033[M", 0);
    define_key("\033[<", KEY_SGR_MOUSE);
    reset_seq_build(t->mouse);
    return 0;
}

static void term_close(session *t)
{
    if (t->scr) {
        mouse_mode(t, false);
        curs_set(1);
        endwin();
        delscreen(t->scr);
        t->scr = NULL;
    }
    tt_grid_free(t->shown);
    t->shown = NULL;
    signals_restore();
    for (int i = 0; i < 2; i++)
        if (wake_pipe[i] >= 0) {
            close(wake_pipe[i]);
            wake_pipe[i] = -1;
        }
    reset_len = 0;
    have_saved_tty = 0;
}

/* Take the terminal again after a stop: program modes, alternate screen,
 * keypad and mouse reporting. */
static void resume(session *t)
{
    endwin();
    refresh();
    mouse_mode(t, true);
}

/* Ctrl-Z: give the terminal back, stop, take it again on SIGCONT. */
static void suspend(session *t)
{
    struct sigaction sa, mine;
    mouse_mode(t, false);
    endwin();
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTSTP, &sa, &mine);
    raise(SIGTSTP);
    /* continued */
    sigaction(SIGTSTP, &mine, NULL);
    stop_req = 0;
    refresh();
    mouse_mode(t, true);
}


/* What the loop shows: the timeline (tt_app) or the compare view
 * (tt_cmp), through the three calls they both have. */
typedef struct term_view {
    void *view;
    int (*input)(void *view, const tt_input *in);
    int (*draw)(void *view, tt_grid *g);
    const char *(*take_clip)(void *view, size_t *n);
} term_view;

/* The terminal may have changed size while we were stopped: a SIGWINCH
 * sent then went to whoever had the terminal (the shell, after a SIGSTOP
 * from outside), not to us. Ask the terminal itself, resize curses to it
 * and tell the app as a resize event would (the app is told even when
 * curses already noticed, as it may while it takes the terminal back).
 * Returns the app's reaction flags. */
static int sync_size(const term_view *v)
{
    struct winsize ws;
    tt_input in;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 &&
        is_term_resized(ws.ws_row, ws.ws_col))
        resize_term(ws.ws_row, ws.ws_col);
    memset(&in, 0, sizeof in);
    in.kind = TT_IN_RESIZE;
    in.x = COLS;
    in.y = LINES;
    return v->input(v->view, &in) | TT_REACT_FULL | TT_REACT_REDRAW;
}

/* Send bytes to the terminal's clipboard: OSC 52 with their base64,
 * which holds no control character whatever the bytes are. Terminals that
 * do not allow it ignore the sequence. */
static void clipboard_send(const char *s, size_t n)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *u = (const unsigned char *)s;
    char *out = malloc(n / 3 * 4 + 16), *o = out;
    if (!out)
        return;
    memcpy(o, "\033]52;c;", 7);
    o += 7;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)u[i] << 16 | (i + 1 < n ? (uint32_t)u[i + 1] << 8 : 0) |
                     (i + 2 < n ? u[i + 2] : 0);
        *o++ = b64[v >> 18 & 63];
        *o++ = b64[v >> 12 & 63];
        *o++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *o++ = '\a';
    fflush(stdout);
    for (const char *p = out; p < o;) {
        ssize_t r = write(STDOUT_FILENO, p, (size_t)(o - p));
        if (r <= 0 && errno != EINTR)
            break;
        if (r > 0)
            p += r;
    }
    free(out);
}

/* Double clicks: a second left press on the same cell soon after the
 * first becomes TT_MOUSE_DOUBLE, so the app needs no clock. */
#define DOUBLE_CLICK_NS 400000000LL

typedef struct clicker {
    bool    armed;
    int     x, y;
    int64_t t;
} clicker;

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void double_click(clicker *c, tt_input *in)
{
    int64_t now;
    if (in->kind != TT_IN_MOUSE || in->action != TT_MOUSE_PRESS)
        return;
    if (in->button != 0) {
        c->armed = false;
        return;
    }
    now = mono_ns();
    if (c->armed && c->x == in->x && c->y == in->y && now - c->t < DOUBLE_CLICK_NS) {
        in->action = TT_MOUSE_DOUBLE;
        c->armed = false;   /* a third press starts over */
        return;
    }
    c->armed = true;
    c->x = in->x;
    c->y = in->y;
    c->t = now;
}

static void drain_pipe(void)
{
    char buf[64];
    if (wake_pipe[0] < 0)
        return;
    while (read(wake_pipe[0], buf, sizeof buf) > 0)
        ;
}

/* Show v on the open terminal until the user quits or a signal ends it. */
static int term_loop(session *t, const term_view *v, tt_grid *g, int *sig, tt_error *err)
{
    bool redraw = true, full = true, done = false;
    int rc = 0;
    clicker clk = {false, 0, 0, 0};
    mouse_mode(t, true);
    busy_since = mono_s();
    tt_jobstop_attach(STDIN_FILENO);   /* a key press stops a long query */
    while (!done) {
        struct pollfd pf[2];
        int n, pr;
        if (quit_sig)
            break;
        if (stop_req) {
            suspend(t);
            cont_seen = 0;
            if (sync_size(v) & TT_REACT_QUIT)
                break;
            redraw = full = true;
        }
        if (cont_seen) {
            /* stopped from outside (SIGSTOP): the job's shell put its own
             * terminal modes back meanwhile; take the terminal again as
             * after Ctrl-Z */
            cont_seen = 0;
            resume(t);
            if (sync_size(v) & TT_REACT_QUIT)
                break;
            redraw = full = true;
        }
        if (winch_seen) {
            winch_seen = 0;
            if (sync_size(v) & TT_REACT_QUIT)
                break;
            redraw = full = true;
        }
        if (redraw) {
            if (v->draw(v->view, g)) {
                rc = tt_error_set(err, TT_ERR_NOMEM, "out of memory drawing the timeline");
                rc = -1;
                break;
            }
            blit(t, g, full);
            redraw = full = false;
        }
        {
            size_t clip_n;
            const char *clip = v->take_clip(v->view, &clip_n);
            if (clip)
                clipboard_send(clip, clip_n);
        }
        pf[0].fd = STDIN_FILENO;
        pf[0].events = POLLIN;
        pf[1].fd = wake_pipe[0];
        pf[1].events = POLLIN;
        n = wake_pipe[0] >= 0 ? 2 : 1;
        /* blocks until input, a signal or a resize; nothing runs meanwhile */
        busy_since = 0;
        pr = poll(pf, (nfds_t)n, -1);
        busy_since = mono_s();
        if (pr < 0 && errno != EINTR) {
            rc = tt_error_set(err, TT_ERR_IO, "waiting for input: %s", strerror(errno));
            rc = -1;
            break;
        }
        drain_pipe();
        if (quit_sig)
            break;
        if (pr > 0 && (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL)) &&
            !(pf[0].revents & POLLIN)) {
            quit_sig = SIGHUP;   /* the terminal went away */
            break;
        }
        for (;;) {
            wint_t ch;
            tt_input in;
            int kr = wget_wch(stdscr, &ch), react;
            if (kr == ERR)
                break;
            if (!decode_key(kr, ch, &in))
                continue;
            double_click(&clk, &in);
            react = v->input(v->view, &in);
            if (in.kind == TT_IN_RESIZE) {
                /* curses already resized its windows */
                react |= TT_REACT_FULL | TT_REACT_REDRAW;
            }
            if (react & TT_REACT_QUIT) {
                done = true;
                break;
            }
            if (react & TT_REACT_REDRAW)
                redraw = true;
            if (react & TT_REACT_FULL)
                full = true;
            if (quit_sig)
                break;
        }
    }
    if (quit_sig)
        *sig = quit_sig;
    busy_since = 0;
    tt_jobstop_attach(-1);
    return rc;
}

static int app_input(void *v, const tt_input *in) { return tt_app_input(v, in); }
static int app_draw(void *v, tt_grid *g) { return tt_app_draw(v, g); }
static const char *app_clip(void *v, size_t *n) { return tt_app_take_clip(v, n); }
static int cmp_input(void *v, const tt_input *in) { return tt_cmp_input(v, in); }
static int cmp_draw(void *v, tt_grid *g) { return tt_cmp_draw(v, g); }
static const char *cmp_clip(void *v, size_t *n) { return tt_cmp_take_clip(v, n); }

int tt_term_run(const tt_trace *tr, const tt_app_opts *opts, int *sig, tt_error *err)
{
    session t;
    tt_app *app = NULL;
    tt_grid *g = NULL;
    int rc = -1;
    memset(&t, 0, sizeof t);
    *sig = 0;
    if (term_open(&t, err))
        return -1;
    app = tt_app_new(tr, COLS, LINES, opts, err);
    g = tt_grid_new(COLS, LINES);
    if (!app || !g) {
        if (app)
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    } else {
        term_view v = {app, app_input, app_draw, app_clip};
        rc = term_loop(&t, &v, g, sig, err);
    }
    term_close(&t);
    tt_app_free(app);
    tt_grid_free(g);
    return rc;
}

int tt_compare_view_run(const tt_cmp_side *a, const tt_cmp_side *b, const tt_cmp_opts *opts,
                        int *sig, tt_error *err)
{
    session t;
    tt_cmp *cmp = NULL;
    tt_grid *g = NULL;
    int rc = -1;
    memset(&t, 0, sizeof t);
    *sig = 0;
    if (term_open(&t, err))
        return -1;
    cmp = tt_cmp_new(a, b, COLS, LINES, opts, err);
    g = tt_grid_new(COLS, LINES);
    if (!cmp || !g) {
        if (cmp)
            tt_error_set(err, TT_ERR_NOMEM, "out of memory");
    } else {
        term_view v = {cmp, cmp_input, cmp_draw, cmp_clip};
        rc = term_loop(&t, &v, g, sig, err);
    }
    term_close(&t);
    tt_cmp_free(cmp);
    tt_grid_free(g);
    return rc;
}
